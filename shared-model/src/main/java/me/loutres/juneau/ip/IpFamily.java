package me.loutres.juneau.ip;

/** The two address families, named as Kubernetes names them in {@code spec.ipFamilies}. */
public enum IpFamily {
    IPV4("IPv4", 32),
    IPV6("IPv6", 128);

    private final String kubeName;
    private final int bits;

    IpFamily(String kubeName, int bits) {
        this.kubeName = kubeName;
        this.bits = bits;
    }

    /** {@code IPv4} or {@code IPv6}, as in {@code spec.ipFamilies} and EndpointSlice {@code addressType}. */
    public String kubeName() {
        return kubeName;
    }

    public int bits() {
        return bits;
    }

    public IpFamily other() {
        return this == IPV4 ? IPV6 : IPV4;
    }

    /** The family of a Kubernetes family name ({@code IPv4}, {@code IPv6}), null for anything else. */
    public static IpFamily ofKubeName(String name) {
        for (IpFamily f : values()) {
            if (f.kubeName.equals(name)) {
                return f;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return kubeName;
    }
}
