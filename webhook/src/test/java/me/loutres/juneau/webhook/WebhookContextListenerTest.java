package me.loutres.juneau.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import me.loutres.juneau.policy.ManagedServices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The WAR's juneau.webhook.manage-unclassed parameter: a typo must not silently leave unclassed Services unreviewed. */
class WebhookContextListenerTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(value = {"true,true", "TRUE,true", "false,false", "False,false", "NULL,false"}, nullValues = "NULL")
    void manageUnclassedIsTrueOrFalse(String value, boolean unclassed) {
        assertThat(WebhookContextListener.manageUnclassed(value)).isEqualTo(ManagedServices.of(unclassed));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"yes", "1", "on"})
    void anythingElseStopsTheStartSayingWhatIsAccepted(String value) {
        assertThatThrownBy(() -> WebhookContextListener.manageUnclassed(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("juneau.webhook.manage-unclassed is \"" + value + "\"; accepted: true or false");
    }
}
