package me.loutres.juneau.purity;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * shared-model is the pure core: plain data in, decisions out. It makes no HTTP or Kubernetes client calls, reads no
 * clock and touches no file except in its YAML reader ({@link #YAML_READER}), so every rule can be tested as a table
 * and runs the same in the webhook, the controller and {@code juneau validate}.
 */
class PurityTest {
    /** The classes that read manifests and cluster-state files from disk (README.md validate, webhook --cluster-state). */
    static final Set<String> YAML_READER = Set.of(
            "me.loutres.juneau.view.YamlDocuments",
            "me.loutres.juneau.view.ClusterStateFiles",
            "me.loutres.juneau.view.ManifestException");

    /** The only class that may use fabric8's serialization helpers (they live in the client's package tree). */
    static final String MAPPER_HOLDER = "me.loutres.juneau.view.KubeObjects";

    static ArchRule noHttp() {
        return noClasses().should().dependOnClassesThat().resideInAnyPackage("java.net.http..", "jakarta.servlet..",
                        "javax.servlet..", "org.eclipse.jetty..", "okhttp3..", "io.vertx..", "org.apache.hc..")
                .orShould().dependOnClassesThat().belongToAnyOf(java.net.HttpURLConnection.class, java.net.URL.class,
                        java.net.Socket.class, java.net.ServerSocket.class, java.net.URLConnection.class)
                .because("shared-model is pure: HTTP belongs to the webhook, controller and agent shells");
    }

    static ArchRule noKubernetesClient() {
        return noClasses().that().doNotHaveFullyQualifiedName(MAPPER_HOLDER).should()
                .dependOnClassesThat(kubernetesClient(false))
                .because("shared-model makes no Kubernetes API calls; only the CustomResource base class of the API "
                        + "types comes from the client's package tree");
    }

    /** The mapper exception is narrow: one class, and only fabric8's serialization utilities. */
    static ArchRule mapperHolderUsesOnlySerialization() {
        return noClasses().that().haveFullyQualifiedName(MAPPER_HOLDER).should()
                .dependOnClassesThat(kubernetesClient(true))
                .allowEmptyShould(true)
                .because(MAPPER_HOLDER + " takes fabric8's JSON mapper (it knows the model types) and nothing else");
    }

    private static DescribedPredicate<JavaClass> kubernetesClient(boolean exceptSerialization) {
        return new DescribedPredicate<>("are part of the Kubernetes client (io.fabric8.kubernetes.client..)"
                + (exceptSerialization ? " other than its serialization utilities" : "")) {
            @Override
            public boolean test(JavaClass c) {
                return c.getPackageName().startsWith("io.fabric8.kubernetes.client")
                        && !c.getName().equals("io.fabric8.kubernetes.client.CustomResource")
                        && !(exceptSerialization && c.getPackageName().equals("io.fabric8.kubernetes.client.utils"));
            }
        };
    }

    static ArchRule noClock() {
        return noClasses().should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethodWhere(JavaAccess.Predicates.target(
                        com.tngtech.archunit.core.domain.properties.HasName.Predicates.name("now"))
                        .and(JavaAccess.Predicates.target(
                                com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                                        com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage("java.time..")))))
                .orShould().dependOnClassesThat().belongToAnyOf(java.time.Clock.class, java.time.InstantSource.class)
                .orShould().callConstructor(java.util.Date.class)
                .because("decisions take the time as data (e.g. a Lease's renewTime and a 'now' passed in)");
    }

    static ArchRule noFilesOutsideTheYamlReader() {
        return noClasses().that(outside(YAML_READER)).should().dependOnClassesThat()
                .resideInAnyPackage("java.nio.file..", "java.nio.channels..")
                .orShould().dependOnClassesThat().belongToAnyOf(java.io.File.class, java.io.FileInputStream.class,
                        java.io.FileOutputStream.class, java.io.FileReader.class, java.io.FileWriter.class,
                        java.io.RandomAccessFile.class, java.io.PrintWriter.class)
                .because("only the YAML reader touches files; everything else gets plain data");
    }

    /** The methods that change an allocator; the planner reads it through its view only. */
    static final Set<String> ALLOCATOR_CHANGES = Set.of("allocate", "claim", "release", "restore", "upsertPool",
            "removePool", "setExcludedAddresses", "setReservedRanges");

    static ArchRule noAllocatorChanges() {
        return noClasses().should().callMethodWhere(new DescribedPredicate<JavaAccess<?>>(
                "a method that changes an Allocator " + ALLOCATOR_CHANGES) {
            @Override
            public boolean test(JavaAccess<?> access) {
                return access.getTargetOwner().isEquivalentTo(me.loutres.juneau.allocation.Allocator.class)
                        && ALLOCATOR_CHANGES.contains(access.getTarget().getName());
            }
        }).because("the planner decides what the allocator must do from a read-only view; the controller's"
                + " applier commits it (docs/design.md, \"The path of one Service\")");
    }

    private static DescribedPredicate<JavaClass> outside(Set<String> names) {
        return new DescribedPredicate<>("are not the YAML reader " + names) {
            @Override
            public boolean test(JavaClass c) {
                String top = c.getName().contains("$") ? c.getName().substring(0, c.getName().indexOf('$')) : c.getName();
                return !names.contains(top);
            }
        };
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("no HTTP", noHttp()),
                Arguments.of("no Kubernetes client", noKubernetesClient()),
                Arguments.of("only serialization in " + MAPPER_HOLDER, mapperHolderUsesOnlySerialization()),
                Arguments.of("no clock", noClock()),
                Arguments.of("no files outside the YAML reader", noFilesOutsideTheYamlReader()));
    }

    private static final JavaClasses SHARED_MODEL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("me.loutres.juneau");

    /** The planner's package: plain data in, decisions out, the allocator only read. */
    private static final JavaClasses PLANNER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("me.loutres.juneau.plan");

    @Test
    void thePlannerChangesNoAllocator() {
        assertThat(PLANNER.contain("me.loutres.juneau.plan.PassPlanner")).isTrue();
        noAllocatorChanges().check(PLANNER);
    }

    @Test
    void importsTheProductionClasses() {
        // an empty import would make every rule pass: make sure the core is really there, and no test class
        assertThat(SHARED_MODEL.contain("me.loutres.juneau.admission.AdmissionEngine")).isTrue();
        assertThat(SHARED_MODEL.contain("me.loutres.juneau.view.YamlDocuments")).isTrue();
        assertThat(SHARED_MODEL.contain(PurityTest.class.getName())).isFalse();
    }

    @ParameterizedTest(name = "shared-model: {0}")
    @MethodSource("rules")
    void sharedModelIsPure(String name, ArchRule rule) {
        rule.check(SHARED_MODEL);
    }

    /** Each rule must catch its kind of impurity, or a green run would prove nothing. */
    static Stream<Arguments> impureFixtures() {
        return Stream.of(
                Arguments.of(noHttp(), ImpureFixtures.Http.class),
                Arguments.of(noKubernetesClient(), ImpureFixtures.Client.class),
                Arguments.of(noKubernetesClient(), ImpureFixtures.Serializes.class),
                Arguments.of(noClock(), ImpureFixtures.Millis.class),
                Arguments.of(noClock(), ImpureFixtures.Nanos.class),
                Arguments.of(noClock(), ImpureFixtures.InstantNow.class),
                Arguments.of(noClock(), ImpureFixtures.UsesClock.class),
                Arguments.of(noFilesOutsideTheYamlReader(), ImpureFixtures.ReadsFile.class),
                Arguments.of(noFilesOutsideTheYamlReader(), ImpureFixtures.OpensStream.class),
                Arguments.of(noAllocatorChanges(), ImpureFixtures.Allocates.class));
    }

    @ParameterizedTest(name = "{1} is caught")
    @MethodSource("impureFixtures")
    void eachRuleCatchesItsImpurity(ArchRule rule, Class<?> fixture) {
        EvaluationResult result = rule.evaluate(new ClassFileImporter().importClasses(fixture));
        assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
    }

    @Test
    void theCustomResourceBaseClassIsAllowed() {
        EvaluationResult result = noKubernetesClient()
                .evaluate(new ClassFileImporter().importClasses(ImpureFixtures.Resource.class));
        assertThat(result.hasViolation()).isFalse();
    }
}
