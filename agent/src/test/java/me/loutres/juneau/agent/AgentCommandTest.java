package me.loutres.juneau.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AgentCommandTest {

    @Test
    void theJarsMainAnswersAWrongFlagWithOneLinePointingAtHelp() {
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        CommandLine cl = AgentCommand.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(out, true));
        int code = cl.execute("--bogus");
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEqualTo("juneau agent: Unknown option: '--bogus' (see --help)"
                + System.lineSeparator());
    }
}
