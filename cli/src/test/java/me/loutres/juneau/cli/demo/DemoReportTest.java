package me.loutres.juneau.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The demo names every step that failed, not the last one it ran (the BGP wire step runs after the ARP one). */
class DemoReportTest {

    @Test
    void aFailedStepFollowedByAGoodOneIsTheOneNamed() {
        DemoReport report = new DemoReport();
        report.steps.add(new DemoReport.Step("pools", null));
        report.steps.add(new DemoReport.Step("ARP on the wire", "the client did not resolve the VIP"));
        report.steps.add(new DemoReport.Step("BGP on the wire", null));
        assertThat(report.succeeded()).isFalse();
        assertThat(report.failures()).containsOnlyKeys(2);
        assertThat(report.failures().get(2).failure()).isEqualTo("the client did not resolve the VIP");
    }

    @Test
    void aRunWithoutFailuresNamesNone() {
        DemoReport report = new DemoReport();
        report.steps.add(new DemoReport.Step("pools", null));
        assertThat(report.succeeded()).isTrue();
        assertThat(report.failures()).isEmpty();
    }
}
