package me.loutres.juneau.certs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/** Reads and writes PEM files. Keys are created 0600 from the start (never world-readable, even briefly). */
final class MaterialFiles {
    static final Set<PosixFilePermission> KEY_MODE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> CERT_MODE = PosixFilePermissions.fromString("rw-r--r--");
    static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");

    private MaterialFiles() {
    }

    static Optional<String> read(Path file) throws UsageException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UsageException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    static void ensureDirectory(Path dir, boolean privateDir) throws UsageException {
        try {
            if (Files.isDirectory(dir)) {
                return;
            }
            if (privateDir && posix(dir.toAbsolutePath().getParent())) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
            } else {
                Files.createDirectories(dir);
            }
        } catch (FileAlreadyExistsException e) {
            throw new UsageException(dir + ": exists and is not a directory");
        } catch (IOException e) {
            throw new UsageException(dir + ": cannot create the directory (" + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * Writes {@code content} atomically (a reader such as the webhook's file watcher sees the old or the new file,
     * never half of one), unless the file already holds exactly that content.
     * @return true when the file was written
     */
    static boolean write(Path file, String content, boolean secret) throws UsageException {
        Optional<String> current = read(file);
        Set<PosixFilePermission> mode = secret ? KEY_MODE : CERT_MODE;
        if (current.isPresent() && current.get().equals(content)) {
            tighten(file, mode);
            return false;
        }
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            FileAttribute<?>[] attrs = posix(dir) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)}
                    : new FileAttribute<?>[0];
            tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp", attrs);
            Files.writeString(tmp, content, StandardCharsets.US_ASCII);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            return true;
        } catch (IOException e) {
            throw new UsageException(file + ": cannot be written (" + e.getClass().getSimpleName() + ")");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort; the temporary name starts with a dot
                }
            }
        }
    }

    private static void tighten(Path file, Set<PosixFilePermission> mode) throws UsageException {
        try {
            if (posix(file) && !Files.getPosixFilePermissions(file).equals(mode)) {
                Files.setPosixFilePermissions(file, mode);
            }
        } catch (IOException e) {
            throw new UsageException(file + ": cannot set permissions (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static boolean posix(Path p) {
        return p != null && Files.getFileAttributeView(p, java.nio.file.attribute.PosixFileAttributeView.class) != null;
    }
}
