package me.loutres.juneau.controller.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventRecorderTest {

    @Test
    void theNameIsStableForOneServiceReasonAndMessage() {
        String a = EventRecorder.eventName("web", "uid-1", "IPAllocated", "allocated VIP 10.0.0.1");
        assertThat(EventRecorder.eventName("web", "uid-1", "IPAllocated", "allocated VIP 10.0.0.1")).isEqualTo(a);
        assertThat(a).matches("web\\.[0-9a-f]{16}");
    }

    @ParameterizedTest(name = "{0}/{1}/{2}/{3} differs")
    @CsvSource({"web, uid-2, IPAllocated, allocated VIP 10.0.0.1", "web, uid-1, AllocationFailed, allocated VIP 10.0.0.1",
            "web, uid-1, IPAllocated, allocated VIP 10.0.0.2", "api, uid-1, IPAllocated, allocated VIP 10.0.0.1"})
    void anyOtherServiceIncarnationReasonOrMessageGetsAnotherName(String svc, String uid, String reason, String msg) {
        assertThat(EventRecorder.eventName(svc, uid, reason, msg))
                .isNotEqualTo(EventRecorder.eventName("web", "uid-1", "IPAllocated", "allocated VIP 10.0.0.1"));
    }
}
