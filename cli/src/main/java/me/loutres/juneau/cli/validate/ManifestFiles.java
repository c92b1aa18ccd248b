package me.loutres.juneau.cli.validate;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import me.loutres.juneau.view.ManifestException;

/**
 * The manifest files under a path a user named: the file itself, or every {@code .yaml}/{@code .yml}/{@code .json}
 * file of a directory tree, sorted by path, less what {@code --ignore} globs and {@code .juneauignore} files name, and
 * less the subdirectories that are kustomizations (their files are patches and bases that only make sense rendered,
 * with {@code -k}). docs/ci.md explains the rules to users.
 */
final class ManifestFiles {
    /** A file in a directory listing globs (one a line, {@code #} comments) to skip under that directory. */
    static final String IGNORE_FILE = ".juneauignore";
    static final List<String> KUSTOMIZATION_FILES = List.of("kustomization.yaml", "kustomization.yml", "Kustomization");

    private ManifestFiles() {
    }

    /** True when the directory holds a kustomization file. */
    static boolean isKustomization(Path dir) {
        return Files.isDirectory(dir) && KUSTOMIZATION_FILES.stream().anyMatch(n -> Files.isRegularFile(dir.resolve(n)));
    }

    /**
     * The files to read under {@code path}; what is skipped is told to {@code notes} (one line each).
     *
     * @param ignores globs, matched against the path relative to {@code path} and against the file or directory name
     */
    static List<Path> list(Path path, List<String> ignores, Consumer<String> notes) throws ManifestException {
        if (!Files.exists(path)) {
            throw new ManifestException(path, 0, "no such file or directory");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        if (isKustomization(path)) {
            throw new ManifestException(path, 0, "is a kustomization; use -k " + path
                    + " to validate what it renders (kubectl kustomize)");
        }
        List<Path> files = new ArrayList<>();
        List<Rule> rules = new ArrayList<>();
        ignores.forEach(g -> rules.add(new Rule(path, g, "--ignore " + g)));
        try {
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    if (!dir.equals(path)) {
                        String why = ignored(rules, dir);
                        if (why != null) {
                            notes.accept(dir + ": skipped (" + why + ")");
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                        if (isKustomization(dir)) {
                            notes.accept(dir + ": a kustomization, skipped; validate it with -k " + dir);
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                    }
                    Path ignoreFile = dir.resolve(IGNORE_FILE);
                    if (Files.isRegularFile(ignoreFile)) {
                        for (String line : Files.readAllLines(ignoreFile)) {
                            String glob = line.strip();
                            if (!glob.isEmpty() && !glob.startsWith("#")) {
                                rules.add(new Rule(dir, glob, ignoreFile.toString()));
                            }
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String n = file.getFileName().toString();
                    if (attrs.isRegularFile() && (n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json"))) {
                        String why = ignored(rules, file);
                        if (why == null) {
                            files.add(file);
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | RuntimeException e) {
            throw new ManifestException(path, 0, "cannot list the directory: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage().lines().findFirst().orElse("")));
        }
        files.sort(null);
        return files;
    }

    private static String ignored(List<Rule> rules, Path p) {
        for (Rule r : rules) {
            if (r.matches(p)) {
                return r.source;
            }
        }
        return null;
    }

    /** One glob, relative to the directory that named it ({@code demo/refused}, {@code *.tmpl.yaml}, {@code **}/x). */
    private static final class Rule {
        private final Path base;
        private final PathMatcher matcher;
        private final String source;

        Rule(Path base, String glob, String source) {
            this.base = base;
            // "dir/" in an ignore file names a directory, as in .gitignore
            this.matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob.replaceAll("/+$", ""));
            this.source = source;
        }

        boolean matches(Path p) {
            if (!p.startsWith(base)) {
                return false;
            }
            Path relative = base.relativize(p);
            return matcher.matches(relative) || matcher.matches(p.getFileName());
        }
    }
}
