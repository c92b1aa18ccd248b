package me.loutres.juneau.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * System.out and System.err of one command run in this JVM, taken from the thread that runs it and the threads it
 * starts, and nobody else's. Threads left over from an earlier run or test (fabric8's informers logging the close of
 * a client, a webhook stopping) write through the same process-wide streams; their lines are not the command's
 * words, so they go to the streams the test began with instead of into the comparison.
 */
final class CapturedOutput implements AutoCloseable {
    /** The run a thread belongs to: set on the running thread, inherited by every thread created from it. */
    private static final InheritableThreadLocal<Object> RUN = new InheritableThreadLocal<>();

    private final Object run = new Object();
    private final Object outerRun = RUN.get();
    private final PrintStream oldOut = System.out;
    private final PrintStream oldErr = System.err;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private CapturedOutput() {
        RUN.set(run);
        System.setOut(new PrintStream(new Routed(out, oldOut), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new Routed(err, oldErr), true, StandardCharsets.UTF_8));
    }

    /** Starts capturing; callers hold the class lock of their own (one capture at a time per JVM). */
    static CapturedOutput start() {
        return new CapturedOutput();
    }

    String out() {
        System.out.flush();
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        System.err.flush();
        return err.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        System.out.flush();
        System.err.flush();
        System.setOut(oldOut);
        System.setErr(oldErr);
        RUN.set(outerRun);
    }

    /** Bytes of this run's threads to the capture, anyone else's to the stream the test began with. */
    private final class Routed extends OutputStream {
        private final OutputStream captured;
        private final OutputStream others;

        Routed(OutputStream captured, OutputStream others) {
            this.captured = captured;
            this.others = others;
        }

        private OutputStream target() {
            return RUN.get() == run ? captured : others;
        }

        @Override
        public void write(int b) throws IOException {
            target().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            target().write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            target().flush();
        }
    }
}
