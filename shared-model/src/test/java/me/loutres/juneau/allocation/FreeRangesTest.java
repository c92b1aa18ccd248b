package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FreeRangesTest {

    @Test
    void takesAndGivesBackCoalescingNeighbours() {
        FreeRanges f = new FreeRanges();
        f.addRange(10, 19);
        assertThat(f.size()).isEqualTo(10);
        assertThat(f.take(15)).isTrue();
        assertThat(f.take(15)).isFalse();
        assertThat(f.intervals()).isEqualTo(2);
        assertThat(f.contains(15)).isFalse();
        assertThat(f.takeLowest()).isEqualTo(10);
        assertThat(f.lowest()).isEqualTo(11);
        assertThat(f.give(10)).isTrue();
        assertThat(f.give(10)).isFalse();
        assertThat(f.give(15)).isTrue();
        assertThat(f.intervals()).isEqualTo(1);
        assertThat(f.size()).isEqualTo(10);
        assertThat(f.take(9)).isFalse();
        assertThat(f.take(20)).isFalse();
    }

    @Test
    void addRangeMergesAdjacentRanges() {
        FreeRanges f = new FreeRanges();
        f.addRange(0, 4);
        f.addRange(10, 14);
        f.addRange(5, 9);
        assertThat(f.intervals()).isEqualTo(1);
        assertThat(f.size()).isEqualTo(15);
        f.addRange(7, 6);
        assertThat(f.size()).isEqualTo(15);
    }

    @Test
    void emptyHasNoLowest() {
        FreeRanges f = new FreeRanges();
        assertThat(f.lowest()).isEqualTo(-1);
        assertThat(f.takeLowest()).isEqualTo(-1);
        f.addRange(4_294_967_295L, 4_294_967_295L);
        assertThat(f.takeLowest()).isEqualTo(4_294_967_295L);
        assertThat(f.size()).isZero();
    }
}
