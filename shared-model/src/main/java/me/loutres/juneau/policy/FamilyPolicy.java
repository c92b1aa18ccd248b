package me.loutres.juneau.policy;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.ip.IpFamily;

/**
 * What a Service asks for with {@code spec.ipFamilyPolicy} and {@code spec.ipFamilies} (docs/dual-stack.md): the
 * families in the order their VIPs are listed, and whether both are required, preferred or one is enough. Read alike
 * by admission, {@code validate} and the controller.
 *
 * @param policy   {@code SingleStack}, {@code PreferDualStack} or {@code RequireDualStack}; absent, as the API server
 *                 defaults it: RequireDualStack when two families are listed, else SingleStack
 * @param families the families asked for, in {@code ipFamilies} order; for a dual-stack policy both, the one not
 *                 listed last; absent {@code ipFamilies}: IPv4 first, as in a cluster whose first family is IPv4
 * @param problems what is wrong with the two fields, one line each (empty when they read well)
 */
public record FamilyPolicy(String policy, List<IpFamily> families, List<String> problems) {
    public static final String SINGLE = "SingleStack";
    public static final String PREFER = "PreferDualStack";
    public static final String REQUIRE = "RequireDualStack";
    private static final List<String> POLICIES = List.of(SINGLE, PREFER, REQUIRE);

    public FamilyPolicy {
        families = List.copyOf(families);
        problems = List.copyOf(problems);
    }

    /** Reads the two fields; null or empty means absent. */
    public static FamilyPolicy of(String ipFamilyPolicy, List<String> ipFamilies) {
        List<String> problems = new ArrayList<>();
        List<String> listed = ipFamilies == null ? List.of() : ipFamilies;
        // as the API server defaults it: two families listed without a policy require both
        String policy = ipFamilyPolicy != null && !ipFamilyPolicy.isEmpty() ? ipFamilyPolicy
                : listed.size() == 2 ? REQUIRE : SINGLE;
        if (!POLICIES.contains(policy)) {
            problems.add("spec.ipFamilyPolicy: \"" + ipFamilyPolicy + "\" is not a policy; accepted: "
                    + String.join(", ", POLICIES));
            policy = SINGLE;
        }
        List<IpFamily> families = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            IpFamily f = IpFamily.ofKubeName(listed.get(i));
            if (f == null) {
                problems.add("spec.ipFamilies[" + i + "]: \"" + listed.get(i) + "\" is not an IP family; accepted: IPv4, IPv6");
            } else if (families.contains(f)) {
                problems.add("spec.ipFamilies: " + listed + " lists " + f + " twice; accepted: one family, or IPv4 "
                        + "and IPv6 in the order their VIPs are wanted");
            } else {
                families.add(f);
            }
        }
        if (SINGLE.equals(policy) && families.size() > 1) {
            problems.add("spec.ipFamilies: " + listed + " has two families, but spec.ipFamilyPolicy is "
                    + SINGLE
                    + "; accepted: one family, or spec.ipFamilyPolicy PreferDualStack or RequireDualStack");
        }
        if (families.isEmpty()) {
            families.add(IpFamily.IPV4);
        }
        if (SINGLE.equals(policy)) {
            families = List.of(families.get(0));
        } else if (families.size() == 1) {
            families.add(families.get(0).other());
        }
        return new FamilyPolicy(policy, families, problems);
    }

    public boolean singleStack() {
        return SINGLE.equals(policy);
    }

    public boolean requiresBoth() {
        return REQUIRE.equals(policy);
    }

    /** {@code [IPv4, IPv6] (PreferDualStack)}: how a message names what the Service asks for. */
    public String describe() {
        return families + " (" + policy + ")";
    }
}
