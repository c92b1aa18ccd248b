package me.loutres.juneau.view;

import java.io.IOException;
import java.nio.file.Path;

/** A manifest or cluster-state file cannot be read; the message is one line: {@code file:line: reason}. */
public class ManifestException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;

    public ManifestException(Path file, int line, String reason) {
        super(file + (line > 0 ? ":" + line : "") + ": " + reason);
        this.file = file;
        this.line = line;
    }

    public Path file() {
        return file;
    }

    /** 1-based line, or 0 when the problem is not on one line (e.g. the file cannot be opened). */
    public int line() {
        return line;
    }
}
