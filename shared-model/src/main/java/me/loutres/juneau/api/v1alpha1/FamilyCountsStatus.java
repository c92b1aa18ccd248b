package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/**
 * One family's counts of an AddressPool (docs/dual-stack.md, "Pool counts"): int64s that saturate at
 * 9223372036854775807 (one IPv6 /64 holds 2^64 - 1 usable addresses), never overflow, never go negative.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The pool's counts of one address family; each saturates at 9223372036854775807.")
public class FamilyCountsStatus {
    @JsonPropertyDescription("Addresses of this family the pool can hand out, saturating at 9223372036854775807.")
    private Long total;
    @JsonPropertyDescription("Addresses of this family held by ServiceLoadBalancers.")
    private Long allocated;
    @JsonPropertyDescription("total - allocated, computed before saturating, so never understated.")
    private Long free;

    public FamilyCountsStatus() {
    }

    public FamilyCountsStatus(long total, long allocated, long free) {
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

    @Override
    public boolean equals(Object o) {
        return o instanceof FamilyCountsStatus that && Objects.equals(total, that.total)
                && Objects.equals(allocated, that.allocated) && Objects.equals(free, that.free);
    }

    @Override
    public int hashCode() {
        return Objects.hash(total, allocated, free);
    }

    @Override
    public String toString() {
        return "{total=" + total + ", allocated=" + allocated + ", free=" + free + "}";
    }
}
