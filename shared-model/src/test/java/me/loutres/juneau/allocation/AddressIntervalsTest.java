package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.TreeSet;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpPoolEntry;
import me.loutres.juneau.ip.IpRange;
import org.junit.jupiter.api.Test;

class AddressIntervalsTest {

    @Test
    void aWholeSlash64IsOneIntervalAndCountsSaturate() {
        AddressIntervals free = new AddressIntervals();
        free.add(IpPoolEntry.parse("bgp", "2001:db8:0:1::/64").usable());
        assertThat(free.intervals()).isEqualTo(1);
        assertThat(free.size()).isEqualTo(Long.MAX_VALUE);
        assertThat(free.takeLowest()).hasToString("2001:db8:0:1::1");
        assertThat(free.takeLowest()).hasToString("2001:db8:0:1::2");
        assertThat(free.intervals()).isEqualTo(1);
        assertThat(free.take(IpAddress.parse("2001:db8:0:1:8000::"))).isTrue();
        assertThat(free.intervals()).isEqualTo(2);
        assertThat(free.give(IpAddress.parse("2001:db8:0:1:8000::"))).isTrue();
        assertThat(free.give(IpAddress.parse("2001:db8:0:1::1"))).isTrue();
        assertThat(free.intervals()).isEqualTo(2); // ::1 is not adjacent to ::3.. while ::2 is held
        assertThat(free.lowest()).hasToString("2001:db8:0:1::1");
    }

    @Test
    void memoryFollowsTheHolesNotTheRange() {
        for (String cidr : new String[] {"10.0.0.0/8", "2001:db8:0:1::/64", "fd00::/120"}) {
            AddressIntervals free = new AddressIntervals();
            free.add(IpPoolEntry.parse("bgp", cidr).usable());
            IpAddress first = free.lowest();
            for (int i = 0; i < 200; i += 2) {
                assertThat(free.take(first.plus(i))).isTrue();
            }
            // 100 single holes taken: 100 intervals whatever the size of the range
            assertThat(free.intervals()).as(cidr).isEqualTo(100);
        }
    }

    /** Property: against a plain set of offsets, around the carry between the two 64-bit halves. */
    @Test
    void behavesAsASetOfAddresses() {
        Random r = new Random(40);
        IpAddress base = IpAddress.parse("2001:db8:0:1:ffff:ffff:ffff:ff00");
        for (int round = 0; round < 50; round++) {
            AddressIntervals set = new AddressIntervals();
            TreeSet<Integer> model = new TreeSet<>();
            for (int step = 0; step < 300; step++) {
                int op = r.nextInt(5);
                int off = r.nextInt(512);
                IpAddress a = base.plus(off);
                switch (op) {
                    case 0 -> {
                        int len = r.nextInt(20);
                        set.add(new IpRange(a, base.plus(Math.min(511, off + len))));
                        for (int i = off; i <= Math.min(511, off + len); i++) {
                            model.add(i);
                        }
                    }
                    case 1 -> assertThat(set.take(a)).isEqualTo(model.remove(off));
                    case 2 -> assertThat(set.give(a)).isEqualTo(model.add(off));
                    case 3 -> {
                        IpAddress got = set.takeLowest();
                        Integer want = model.pollFirst();
                        assertThat(got).isEqualTo(want == null ? null : base.plus(want));
                    }
                    default -> assertThat(set.contains(a)).isEqualTo(model.contains(off));
                }
                assertThat(set.size()).isEqualTo(model.size());
                assertThat(set.intervals()).isEqualTo(runs(model));
            }
        }
    }

    private static IpAddress v4(long n) {
        return IpAddress.ipv4(n);
    }

    private static IpRange v4(long first, long last) {
        return new IpRange(v4(first), v4(last));
    }

    /** The IPv4 cases the allocator's former long-only twin (FreeRanges) was tested with: one set for both families. */
    @Test
    void ipv4TakesAndGivesBackCoalescingNeighbours() {
        AddressIntervals f = new AddressIntervals();
        f.add(v4(10, 19));
        assertThat(f.size()).isEqualTo(10);
        assertThat(f.take(v4(15))).isTrue();
        assertThat(f.take(v4(15))).isFalse();
        assertThat(f.intervals()).isEqualTo(2);
        assertThat(f.contains(v4(15))).isFalse();
        assertThat(f.takeLowest()).isEqualTo(v4(10));
        assertThat(f.lowest()).isEqualTo(v4(11));
        assertThat(f.give(v4(10))).isTrue();
        assertThat(f.give(v4(10))).isFalse();
        assertThat(f.give(v4(15))).isTrue();
        assertThat(f.intervals()).isEqualTo(1);
        assertThat(f.size()).isEqualTo(10);
        assertThat(f.take(v4(9))).isFalse();
        assertThat(f.take(v4(20))).isFalse();
    }

    @Test
    void ipv4AdjacentRangesMergeAndTheLastAddressWorks() {
        AddressIntervals f = new AddressIntervals();
        f.add(v4(0, 4));
        f.add(v4(10, 14));
        f.add(v4(5, 9));
        assertThat(f.intervals()).isEqualTo(1);
        assertThat(f.size()).isEqualTo(15);
        f.clear();
        assertThat(f.lowest()).isNull();
        assertThat(f.takeLowest()).isNull();
        assertThat(f.size()).isZero();
        f.add(v4(4_294_967_295L, 4_294_967_295L));
        f.add(v4(4_294_967_290L, 4_294_967_294L));
        assertThat(f.intervals()).isEqualTo(1);
        assertThat(f.take(v4(4_294_967_295L))).isTrue();
        assertThat(f.size()).isEqualTo(5);
    }

    private static int runs(TreeSet<Integer> model) {
        int runs = 0;
        Integer prev = null;
        for (int v : model) {
            if (prev == null || v != prev + 1) {
                runs++;
            }
            prev = v;
        }
        return runs;
    }
}
