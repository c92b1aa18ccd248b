package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Written by the controller; counts are longs so a /8 (and many of them) cannot overflow. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Written by the controller: how many addresses the pool holds, hands out and has left.")
public class AddressPoolStatus {
    @JsonPropertyDescription("Addresses the pool can hand out (network and broadcast addresses of CIDRs shorter than /31 excluded).")
    private Long total;
    @JsonPropertyDescription("Addresses currently held by ServiceLoadBalancers.")
    private Long allocated;
    @JsonPropertyDescription("total - allocated.")
    private Long free;
    @JsonPropertyDescription("Standard conditions.")
    @SchemaFrom(type = ConditionSchema.class)
    private List<Condition> conditions = new ArrayList<>();
    // per-family counts (docs/dual-stack.md): written only for a pool that holds an IPv6 entry, so an IPv4-only
    // pool's status stays as it was
    @JsonPropertyDescription("IPv4 counts; written when the pool holds IPv6 entries too (the top-level counts are the IPv4 ones).")
    private FamilyCountsStatus ipv4;
    @JsonPropertyDescription("IPv6 counts, each saturating at 9223372036854775807; written when the pool holds IPv6 entries.")
    private FamilyCountsStatus ipv6;

    public AddressPoolStatus() {
    }

    public AddressPoolStatus(long total, long allocated, long free) {
        this.total = total;
        this.allocated = allocated;
        this.free = free;
    }

    public Long getTotal() {
        return total;
    }

    public void setTotal(Long total) {
        this.total = total;
    }

    public Long getAllocated() {
        return allocated;
    }

    public void setAllocated(Long allocated) {
        this.allocated = allocated;
    }

    public Long getFree() {
        return free;
    }

    public void setFree(Long free) {
        this.free = free;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public FamilyCountsStatus getIpv4() {
        return ipv4;
    }

    public void setIpv4(FamilyCountsStatus ipv4) {
        this.ipv4 = ipv4;
    }

    public FamilyCountsStatus getIpv6() {
        return ipv6;
    }

    public void setIpv6(FamilyCountsStatus ipv6) {
        this.ipv6 = ipv6;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AddressPoolStatus)) {
            return false;
        }
        AddressPoolStatus that = (AddressPoolStatus) o;
        return Objects.equals(total, that.total) && Objects.equals(allocated, that.allocated)
                && Objects.equals(free, that.free) && Objects.equals(conditions, that.conditions)
                && Objects.equals(ipv4, that.ipv4) && Objects.equals(ipv6, that.ipv6);
    }

    @Override
    public int hashCode() {
        return Objects.hash(total, allocated, free, conditions, ipv4, ipv6);
    }
}
