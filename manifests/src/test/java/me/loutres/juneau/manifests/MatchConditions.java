package me.loutres.juneau.manifests;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * Evaluates a webhook matchCondition with a real CEL engine the way the API server does: {@code object} and
 * {@code request} bound, {@code object} null on DELETE. An expression that does not compile, or errors at run time
 * (which the API server treats as an error, failing the request under failurePolicy Fail), fails the test.
 */
final class MatchConditions {
    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            // has() is a macro, as in the API server's CEL environment
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("object", SimpleType.DYN)
            .addVar("oldObject", SimpleType.DYN)
            .addVar("request", SimpleType.DYN)
            .build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();

    private MatchConditions() {
    }

    static boolean evaluate(String expression, Map<String, Object> object, String operation) {
        return evaluate(expression, object, operation, "kubernetes-admin");
    }

    /** With the requesting user's name, which the API server always binds ({@code request.userInfo.username}). */
    static boolean evaluate(String expression, Map<String, Object> object, String operation, String username) {
        try {
            CelAbstractSyntaxTree ast = COMPILER.compile(expression).getAst();
            Map<String, Object> vars = new HashMap<>();
            vars.put("object", object == null ? com.google.protobuf.NullValue.NULL_VALUE : object);
            vars.put("oldObject", com.google.protobuf.NullValue.NULL_VALUE);
            vars.put("request", Map.of("operation", operation, "userInfo", Map.of("username", username)));
            Object result = RUNTIME.createProgram(ast).eval(vars);
            if (!(result instanceof Boolean b)) {
                throw new AssertionError("matchCondition '" + expression + "' returned " + result + ", not a bool");
            }
            return b;
        } catch (Exception e) {
            throw new AssertionError("matchCondition '" + expression + "' failed on " + operation + " of " + object
                    + ": " + e.getMessage(), e);
        }
    }

    /** A Service as the API server hands it to CEL; null fields are absent. */
    static Map<String, Object> service(String type, String loadBalancerClass) {
        return service(type, loadBalancerClass, null);
    }

    /** A Service with annotations (none when null). */
    static Map<String, Object> service(String type, String loadBalancerClass, Map<String, String> annotations) {
        Map<String, Object> spec = new HashMap<>();
        if (type != null) {
            spec.put("type", type);
        }
        if (loadBalancerClass != null) {
            spec.put("loadBalancerClass", loadBalancerClass);
        }
        Map<String, Object> metadata = new HashMap<>(Map.of("name", "web", "namespace", "default"));
        if (annotations != null) {
            metadata.put("annotations", annotations);
        }
        return Map.of("apiVersion", "v1", "kind", "Service", "metadata", metadata, "spec", spec);
    }
}
