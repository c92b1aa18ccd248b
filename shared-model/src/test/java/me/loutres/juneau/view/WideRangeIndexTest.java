package me.loutres.juneau.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpRange;
import org.junit.jupiter.api.Test;

class WideRangeIndexTest {

    private static IpRange cidr(String text) {
        String[] parts = text.split("/");
        IpAddress base = IpAddress.parse(parts[0]);
        int prefix = Integer.parseInt(parts[1]);
        return new IpRange(base.masked(prefix), base.lastOfPrefix(prefix));
    }

    @Test
    void findsAWidePrefixFromAnAddressFarInsideIt() {
        WideRangeIndex<String> index = new WideRangeIndex<>();
        index.replace("pool-a", List.of(new WideRangeIndex.Hit<>(cidr("2001:db8:0:1::/64"), "a")));
        index.replace("pool-b", List.of(new WideRangeIndex.Hit<>(cidr("2001:db8:0:2::/120"), "b")));
        assertThat(index.overlapping(IpRange.single(IpAddress.parse("2001:db8:0:1:ffff::1")))).extracting(WideRangeIndex.Hit::value)
                .containsExactly("a");
        assertThat(index.overlapping(cidr("2001:db8::/32"))).extracting(WideRangeIndex.Hit::value).containsExactly("a", "b");
        assertThat(index.overlapping(cidr("2001:db8:0:3::/64"))).isEmpty();
        assertThat(index.overlapping(IpRange.single(IpAddress.parse("::1")))).isEmpty(); // first - widest clamps at ::
        assertThat(index.replace("pool-a", List.of())).isTrue();
        assertThat(index.overlapping(cidr("2001:db8::/32"))).extracting(WideRangeIndex.Hit::value).containsExactly("b");
        assertThat(index.remove("pool-a")).isFalse();
    }

    /** Property: the index answers as a walk of every range would. */
    @Test
    void answersAsAWalk() {
        Random r = new Random(40);
        IpAddress base = IpAddress.parse("2001:db8::");
        WideRangeIndex<Integer> index = new WideRangeIndex<>();
        List<IpRange> all = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            IpAddress first = base.plus(r.nextInt(1 << 20) * (long) (1 << 20));
            IpRange range = new IpRange(first, first.plus(r.nextInt(3) == 0 ? (1L << 40) : r.nextInt(1 << 16)));
            all.add(range);
            index.replace("o" + i, List.of(new WideRangeIndex.Hit<>(range, i)));
        }
        for (int q = 0; q < 300; q++) {
            IpAddress first = base.plus(r.nextInt(1 << 20) * (long) (1 << 20));
            IpRange query = new IpRange(first, first.plus(r.nextInt(1 << 24)));
            List<Integer> walk = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).overlaps(query)) {
                    walk.add(i);
                }
            }
            assertThat(index.overlapping(query)).extracting(WideRangeIndex.Hit::value).containsExactlyInAnyOrderElementsOf(walk);
        }
    }
}
