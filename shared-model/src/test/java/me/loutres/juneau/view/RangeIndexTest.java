package me.loutres.juneau.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import me.loutres.juneau.ip.AddressRange;
import org.junit.jupiter.api.Test;

class RangeIndexTest {
    private static AddressRange r(long first, long last) {
        return new AddressRange(first, last);
    }

    @Test
    void findsEveryOverlapIncludingAWideRangeThatStartsFarBefore() {
        RangeIndex<String> index = new RangeIndex<>();
        index.replace("wide", List.of(new RangeIndex.Hit<>(r(0, 1_000_000), "wide")));
        index.replace("small", List.of(new RangeIndex.Hit<>(r(500_000, 500_010), "small"),
                new RangeIndex.Hit<>(r(900_000, 900_000), "single")));

        assertThat(index.overlapping(r(500_005, 500_005))).extracting(RangeIndex.Hit::value)
                .containsExactly("wide", "small");
        assertThat(index.overlapping(r(1_000_001, 2_000_000))).isEmpty();
    }

    @Test
    void aNewVersionReplacesTheOwnersRangesAndRemovalForgetsThem() {
        RangeIndex<String> index = new RangeIndex<>();
        index.replace("pool", List.of(new RangeIndex.Hit<>(r(10, 20), "v1")));
        index.replace("pool", List.of(new RangeIndex.Hit<>(r(30, 40), "v2")));

        assertThat(index.overlapping(r(10, 20))).isEmpty();
        assertThat(index.overlapping(r(35, 35))).extracting(RangeIndex.Hit::value).containsExactly("v2");
        index.remove("pool");
        assertThat(index.overlapping(r(0, 100))).isEmpty();
    }

    @Test
    void answersAsAWalkOfEveryRangeWould() {
        Random random = new Random(27);
        RangeIndex<Integer> index = new RangeIndex<>();
        List<AddressRange> all = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            long first = random.nextInt(100_000);
            AddressRange range = r(first, first + random.nextInt(i % 50 == 0 ? 20_000 : 50));
            all.add(range);
            index.replace("o" + i, List.of(new RangeIndex.Hit<>(range, i)));
        }
        for (int q = 0; q < 200; q++) {
            long first = random.nextInt(110_000);
            AddressRange query = r(first, first + random.nextInt(300));
            List<Integer> walk = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).overlaps(query)) {
                    walk.add(i);
                }
            }
            assertThat(index.overlapping(query)).extractingResultOf("value").containsExactlyInAnyOrderElementsOf(walk);
        }
    }
}
