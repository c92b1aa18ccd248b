package me.loutres.juneau.cli.images;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * THIRD-PARTY.md lists every jar the images carry (cli/target/lib: the runtime dependencies, which the package phase
 * also writes to target/runtime-dependencies.txt) with the licence its POM declares (or its parent POM's). The test
 * fails when the file is stale and prints the text to put there; {@code -Djuneau.thirdparty.write=true} writes it.
 */
class ThirdPartyNoticesIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path FILE = ROOT.resolve("THIRD-PARTY.md");
    static final Pattern COORDINATES = Pattern.compile(
            "^\\s*([\\w.-]+):([\\w.-]+):jar(?::[\\w.-]+)?:([\\w.+-]+)(?:\\s+--\\s.*)?\\s*$");
    /** Licences under which the jars may ship inside an Apache-2.0 product's images. */
    static final List<Pattern> ACCEPTED = List.of(Pattern.compile("(?i).*apache.*2.*"),
            Pattern.compile("(?i).*\\bmit\\b.*"), Pattern.compile("(?i).*bsd.*"),
            Pattern.compile("(?i).*(eclipse public|epl).*"), Pattern.compile("(?i).*(eclipse distribution|edl).*"),
            Pattern.compile("(?i).*(lgpl|lesser general public).*"), Pattern.compile("(?i).*classpath.*exception.*"),
            Pattern.compile("(?i).*bouncy castle.*"), Pattern.compile("(?i).*public domain.*"),
            Pattern.compile("(?i).*cddl.*"), Pattern.compile("(?i).*go license.*"));

    record Dependency(String group, String artifact, String version, String licence) {
    }

    @Test
    void theNoticesListEveryJarOfTheImagesWithItsLicence() throws Exception {
        Path list = ROOT.resolve("cli/target/runtime-dependencies.txt");
        assertThat(list).as("written by the package phase (cli/pom.xml, list-runtime-libs)").exists();
        Path repo = Path.of(System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository"));
        List<Dependency> deps = new ArrayList<>();
        for (String line : Files.readAllLines(list)) {
            Matcher m = COORDINATES.matcher(line);
            if (m.matches() && !m.group(1).startsWith("me.loutres.juneau")) {
                deps.add(new Dependency(m.group(1), m.group(2), m.group(3), licence(repo, m.group(1), m.group(2), m.group(3), 0)));
            }
        }
        assertThat(deps).as("dependencies in %s", list).isNotEmpty();
        Set<String> jars = new TreeSet<>();
        try (var files = Files.list(ROOT.resolve("cli/target/lib"))) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar") && !n.startsWith("shared-model")
                    && !n.matches("(agent|apiserver|certs|controller|runtime|webhook|test-support)-.*")).forEach(jars::add);
        }
        assertThat(jars).as("every third-party jar in cli/target/lib is in the list")
                .allSatisfy(j -> assertThat(deps).anySatisfy(d -> assertThat(j).startsWith(d.artifact() + "-" + d.version())));
        assertThat(deps).as("a declared licence the images may carry").allSatisfy(d -> assertThat(d.licence())
                .as("%s:%s", d.group(), d.artifact()).satisfies(l -> assertThat(ACCEPTED).anyMatch(p -> p.matcher(l).matches())));

        String expected = render(deps);
        if (Boolean.getBoolean("juneau.thirdparty.write")) {
            Files.writeString(FILE, expected);
        }
        assertThat(FILE).as("THIRD-PARTY.md (regenerate: mvn -o -B -pl cli -am verify -Dit.test=ThirdPartyNoticesIT"
                + " -Djuneau.thirdparty.write=true)").exists();
        assertThat(Files.readString(FILE)).as("THIRD-PARTY.md is stale; regenerate it with"
                + " -Djuneau.thirdparty.write=true (see the class comment)").isEqualTo(expected);
    }

    static String render(List<Dependency> deps) {
        StringBuilder b = new StringBuilder("""
                # Third-party software in Juneau LB's images

                Generated from the runtime dependencies of `cli` (the jars every image carries in `/opt/juneau/lib`)
                and the licences their POMs declare; `ThirdPartyNoticesIT` fails when this file is stale. Each jar
                carries its own licence and notice files. Images built on the Debian base (`bin/juneau-images --base
                debian`) also carry Debian's packages (OpenJDK, BIRD 2, ...), whose copyright and licence files are
                in the image under `/usr/share/doc/<package>/copyright`. Juneau LB itself: Apache-2.0 (`LICENSE`,
                `NOTICE`).

                | Group | Artifact | Version | Licence |
                |---|---|---|---|
                """);
        deps.stream().sorted(java.util.Comparator.comparing(Dependency::group).thenComparing(Dependency::artifact))
                .forEach(d -> b.append("| ").append(d.group()).append(" | ").append(d.artifact()).append(" | ")
                        .append(d.version()).append(" | ").append(d.licence()).append(" |\n"));
        return b.toString();
    }

    /** The licence names of the POM, else of its parent (depth-limited). */
    static String licence(Path repo, String group, String artifact, String version, int depth) throws Exception {
        Path pom = repo.resolve(group.replace('.', '/')).resolve(artifact).resolve(version)
                .resolve(artifact + "-" + version + ".pom");
        if (!Files.exists(pom) || depth > 8) {
            return "";
        }
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(pom.toFile());
        Element project = doc.getDocumentElement();
        Element licences = child(project, "licenses");
        if (licences != null) {
            List<String> names = new ArrayList<>();
            NodeList ls = licences.getElementsByTagName("license");
            for (int i = 0; i < ls.getLength(); i++) {
                Element name = child((Element) ls.item(i), "name");
                if (name != null && !name.getTextContent().isBlank()) {
                    names.add(name.getTextContent().trim().replaceAll("\\s+", " "));
                }
            }
            if (!names.isEmpty()) {
                return String.join(" / ", names);
            }
        }
        Element parent = child(project, "parent");
        if (parent == null) {
            return "";
        }
        return licence(repo, text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"), depth + 1);
    }

    private static Element child(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && name.equals(c.getTagName())) {
                return c;
            }
        }
        return null;
    }

    private static String text(Element e, String name) {
        Element c = child(e, name);
        return c == null ? "" : c.getTextContent().trim();
    }
}
