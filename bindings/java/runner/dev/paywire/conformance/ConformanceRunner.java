package dev.paywire.conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import dev.paywire.Json;
import dev.paywire.LibraryNotFoundException;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The JVM runner of the Paywire conformance kit: reads the ops of tests/conformance/README.md as
 * JSON lines on stdin and answers each with one JSON line on stdout.
 *
 * <pre>java -cp build/java/paywire.jar:build/java/paywire-conformance.jar:/usr/share/java/jna.jar:/usr/share/java/gson.jar \
 *     dev.paywire.conformance.ConformanceRunner</pre>
 *
 * Every client still live when stdin closes is freed; the exit status is 0 unless the runner
 * could not start (no library, another ABI).
 */
public final class ConformanceRunner {
    private ConformanceRunner() {
    }

    public static void main(String[] arguments) throws IOException, InterruptedException {
        RunnerOps ops;
        try {
            ops = new RunnerOps();
        } catch (LibraryNotFoundException error) {
            System.err.println(error.getMessage());
            System.exit(1);
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isEmpty()) {
                continue;
            }
            out.write(Json.write(answer(ops, line)));
            out.write('\n');
            out.flush();
        }
        ops.freeLiveClients();
        out.flush();
        // Library threads that once ran a handler stay attached to the JVM; exit without waiting for them.
        System.exit(0);
    }

    /** One op's reply, with the op's {@code id} echoed; a runner error for an op that is not JSON. */
    private static JsonObject answer(RunnerOps ops, String line) throws InterruptedException {
        JsonObject op;
        try {
            JsonElement parsed = Json.parse(line);
            if (!parsed.isJsonObject()) {
                return RunnerOps.runnerError("op is not a JSON object");
            }
            op = parsed.getAsJsonObject();
        } catch (JsonParseException error) {
            JsonObject reply = RunnerOps.runnerError("op is not JSON");
            reply.addProperty("detail", String.valueOf(error.getMessage()));
            return reply;
        }
        JsonObject reply;
        try {
            reply = ops.run(op);
        } catch (RuntimeException error) {
            reply = RunnerOps.runnerError(error.toString());
        }
        JsonElement id = op.get("id");
        if (id != null) {
            reply.add("id", id);
        }
        return reply;
    }
}
