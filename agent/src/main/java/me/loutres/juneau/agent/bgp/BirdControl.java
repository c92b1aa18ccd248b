package me.loutres.juneau.agent.bgp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * BIRD's control socket, spoken as birdc does: one command per line; each reply line starts with a four-digit code,
 * followed by '-' when more lines follow or ' ' on the last one; a line starting with a space continues the previous
 * code. Codes 8000 and above are errors (docs/bgp.md). One connection, one command at a time.
 */
public final class BirdControl implements AutoCloseable {
    private final SocketChannel channel;
    private final BufferedReader in;
    private final OutputStream out;

    /** One reply line: its code and text. */
    public record Line(int code, String text) {
    }

    /** A whole reply. */
    public record Reply(List<Line> lines) {
        public boolean ok() {
            return !lines.isEmpty() && lines.get(lines.size() - 1).code() < 8000;
        }

        /** The reply as one line, for logs and status (the error line when there is one). */
        public String summary() {
            return lines.isEmpty() ? "(no reply)" : lines.get(lines.size() - 1).text().strip();
        }

        /** The text of the lines, without codes, one per line. */
        public String text() {
            StringBuilder b = new StringBuilder();
            for (Line l : lines) {
                b.append(l.text()).append('\n');
            }
            return b.toString();
        }
    }

    private BirdControl(SocketChannel channel) {
        this.channel = channel;
        this.in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
        this.out = Channels.newOutputStream(channel);
    }

    /** Connects and reads BIRD's greeting ({@code 0001 BIRD 2.x ready.}). */
    public static BirdControl connect(Path socket) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            BirdControl control = new BirdControl(channel);
            Reply greeting = control.readReply();
            if (!greeting.ok()) {
                throw new IOException("BIRD greeted with " + greeting.summary());
            }
            return control;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    public synchronized Reply command(String command) throws IOException {
        if (command.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("one command per line");
        }
        out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        return readReply();
    }

    private Reply readReply() throws IOException {
        List<Line> lines = new ArrayList<>();
        int code = 0;
        while (true) {
            String line = in.readLine();
            if (line == null) {
                throw new IOException("BIRD closed its control socket");
            }
            if (line.length() >= 5 && Character.isDigit(line.charAt(0)) && Character.isDigit(line.charAt(3))
                    && (line.charAt(4) == ' ' || line.charAt(4) == '-')) {
                code = Integer.parseInt(line.substring(0, 4));
                lines.add(new Line(code, line.substring(5)));
                if (line.charAt(4) == ' ') {
                    return new Reply(lines);
                }
            } else if (line.length() == 4 && Character.isDigit(line.charAt(0))) {
                lines.add(new Line(Integer.parseInt(line), ""));
                return new Reply(lines);
            } else {
                lines.add(new Line(code, line.isEmpty() ? "" : line.substring(1)));
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
