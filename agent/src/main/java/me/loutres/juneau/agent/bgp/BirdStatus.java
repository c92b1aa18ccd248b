package me.loutres.juneau.agent.bgp;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What BIRD says about this node's sessions, read from the text of {@code show protocols all} and {@code show bfd
 * sessions}. Pure.
 */
public final class BirdStatus {
    private static final Pattern PROTOCOL = Pattern.compile("^(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s*(.*)$");
    private static final Pattern BGP_STATE = Pattern.compile("^\\s*BGP state:\\s+(\\S+)");
    private static final Pattern NEIGHBOR = Pattern.compile("^\\s*Neighbor address:\\s+(\\S+)");
    private static final Pattern LAST_ERROR = Pattern.compile("^\\s*Last error:\\s+(.+?)\\s*$");
    private static final Pattern ROUTES = Pattern.compile("^\\s*Routes:\\s+\\d+ imported, (\\d+) exported");
    private static final Pattern BFD = Pattern.compile("^\\s*(\\d+\\.\\d+\\.\\d+\\.\\d+)\\s+\\S+\\s+(\\S+)\\s");

    private BirdStatus() {
    }

    /**
     * One BGP protocol's state.
     *
     * @param state     BIRD's BGP state (Idle, Connect, Active, OpenSent, OpenConfirm, Established); "Down" when the
     *                  protocol is shut down
     * @param neighbor  the neighbour's address
     * @param lastError the last error in BIRD's words, or null
     * @param exported  routes exported to the peer
     */
    public record Session(String state, String neighbor, String lastError, long exported) {
        public boolean established() {
            return "Established".equals(state);
        }
    }

    /** The BGP protocols of {@code show protocols all}, by protocol name. */
    public static Map<String, Session> sessions(BirdControl.Reply reply) {
        Map<String, Session> out = new LinkedHashMap<>();
        String name = null;
        String state = null;
        String neighbor = null;
        String error = null;
        long exported = 0;
        for (BirdControl.Line line : reply.lines()) {
            if (line.code() == 1002) {
                if (name != null) {
                    out.put(name, new Session(state, neighbor, error, exported));
                }
                name = null;
                Matcher m = PROTOCOL.matcher(line.text());
                if (m.matches() && "BGP".equals(m.group(2))) {
                    name = m.group(1);
                    state = "down".equals(m.group(4)) ? "Idle" : firstWord(m.group(6));
                    neighbor = null;
                    error = null;
                    exported = 0;
                }
                continue;
            }
            if (name == null || line.code() != 1006) {
                continue;
            }
            Matcher m;
            if ((m = BGP_STATE.matcher(line.text())).find()) {
                state = m.group(1);
            } else if ((m = NEIGHBOR.matcher(line.text())).find()) {
                neighbor = m.group(1);
            } else if ((m = LAST_ERROR.matcher(line.text())).find()) {
                error = m.group(1);
            } else if ((m = ROUTES.matcher(line.text())).find()) {
                exported = Long.parseLong(m.group(1));
            }
        }
        if (name != null) {
            out.put(name, new Session(state, neighbor, error, exported));
        }
        return out;
    }

    /** BFD session state (Up, Down, Init, AdminDown) by neighbour address, from {@code show bfd sessions}. */
    public static Map<String, String> bfd(BirdControl.Reply reply) {
        Map<String, String> out = new LinkedHashMap<>();
        for (BirdControl.Line line : reply.lines()) {
            Matcher m = BFD.matcher(line.text());
            if (m.find()) {
                out.put(m.group(1), m.group(2));
            }
        }
        return out;
    }

    private static String firstWord(String s) {
        String t = s.strip();
        int space = t.indexOf(' ');
        return t.isEmpty() ? "Idle" : space < 0 ? t : t.substring(0, space);
    }
}
