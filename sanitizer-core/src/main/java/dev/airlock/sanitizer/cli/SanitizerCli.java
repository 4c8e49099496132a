package dev.airlock.sanitizer.cli;

import dev.airlock.sanitizer.AuditView;
import dev.airlock.sanitizer.ByteSink;
import dev.airlock.sanitizer.CrPolicy;
import dev.airlock.sanitizer.Fence;
import dev.airlock.sanitizer.FencedWriter;
import dev.airlock.sanitizer.SanitizerPolicy;
import dev.airlock.sanitizer.TerminalSanitizer;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Command-line front end: reads standard input, writes the chosen view to standard output.
 *
 * <pre>
 * java -jar sanitizer-core.jar [--view text|audit|fenced] [--cr newline|overwrite]
 *      [--source NAME] [--chunk N] [--report] [--unescape] &lt; input &gt; output
 * </pre>
 *
 * Exit status 0 on success, 1 when input or output fails or {@code --unescape} meets malformed
 * notation, 2 with a one-line usage message on a bad option.
 */
public final class SanitizerCli {

    static final String USAGE = "usage: sanitizer [--view text|audit|fenced] [--cr newline|overwrite]"
            + " [--source NAME] [--chunk N] [--report] [--unescape] < input > output";

    static final int OK = 0;
    static final int FAILED = 1;
    static final int BAD_USAGE = 2;

    private static final int MAX_CHUNK = 64 * 1024 * 1024;

    private SanitizerCli() {}

    /** Runs the tool on the process's standard streams and exits with its status. */
    public static void main(String[] args) {
        InputStream in = new FileInputStream(FileDescriptor.in);
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        System.exit(run(args, in, out, err));
    }

    /** Runs the tool on the given streams and returns the exit status. */
    public static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("sanitizer: " + e.getMessage());
            err.println(USAGE);
            return BAD_USAGE;
        }
        if (options.help()) {
            err.println(USAGE);
            return OK;
        }
        BufferedOutputStream buffered = new BufferedOutputStream(out, 64 * 1024);
        ByteSink stdout = (bytes, offset, length) -> {
            try {
                buffered.write(bytes, offset, length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        try {
            Pipeline pipeline = Pipeline.of(options, stdout);
            byte[] chunk = new byte[options.chunk()];
            int n;
            while ((n = in.readNBytes(chunk, 0, chunk.length)) > 0) {
                pipeline.write(chunk, n);
            }
            pipeline.finish();
            buffered.flush();
            if (options.report()) {
                err.println(pipeline.report());
            }
            return OK;
        } catch (AuditView.MalformedNotationException e) {
            flushQuietly(buffered);
            err.println("sanitizer: " + e.getMessage());
            return FAILED;
        } catch (IOException | UncheckedIOException e) {
            err.println("sanitizer: I/O error: " + e.getMessage());
            return FAILED;
        }
    }

    private static void flushQuietly(OutputStream out) {
        try {
            out.flush();
        } catch (IOException ignored) {
            // The malformed-notation message is what the user needs to see.
        }
    }

    /** The parsed command line. */
    record Options(String view, CrPolicy cr, String source, int chunk, boolean report, boolean unescape, boolean help) {

        static Options parse(String[] args) {
            String view = null;
            CrPolicy cr = null;
            String source = null;
            int chunk = 65536;
            boolean report = false;
            boolean unescape = false;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String value = null;
                int eq = arg.indexOf('=');
                if (arg.startsWith("--") && eq > 0) {
                    value = arg.substring(eq + 1);
                    arg = arg.substring(0, eq);
                }
                switch (arg) {
                    case "--view" -> {
                        value = value != null ? value : next(args, ++i, arg);
                        if (!value.equals("text") && !value.equals("audit") && !value.equals("fenced")) {
                            throw new IllegalArgumentException(
                                    "--view takes text, audit or fenced, not '" + value + "'");
                        }
                        view = value;
                    }
                    case "--cr" -> {
                        value = value != null ? value : next(args, ++i, arg);
                        cr = switch (value) {
                            case "newline" -> CrPolicy.NEWLINE;
                            case "overwrite" -> CrPolicy.OVERWRITE;
                            default ->
                                throw new IllegalArgumentException(
                                        "--cr takes newline or overwrite, not '" + value + "'");
                        };
                    }
                    case "--source" -> source = value != null ? value : next(args, ++i, arg);
                    case "--chunk" -> chunk = parseChunk(value != null ? value : next(args, ++i, arg));
                    case "--report" -> report = flag(arg, value);
                    case "--unescape" -> unescape = flag(arg, value);
                    case "--help", "-h" -> {
                        return new Options("text", CrPolicy.NEWLINE, "stdin", chunk, false, false, true);
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                }
            }
            if (unescape && (view != null || cr != null || source != null || report)) {
                throw new IllegalArgumentException(
                        "--unescape writes the decoded bytes and takes no" + " --view, --cr, --source or --report");
            }
            return new Options(
                    view == null ? "text" : view,
                    cr == null ? CrPolicy.NEWLINE : cr,
                    source == null ? "stdin" : source,
                    chunk,
                    report,
                    unescape,
                    false);
        }

        private static boolean flag(String name, String value) {
            if (value != null) {
                throw new IllegalArgumentException(name + " takes no value");
            }
            return true;
        }

        private static String next(String[] args, int i, String name) {
            if (i >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return args[i];
        }

        private static int parseChunk(String value) {
            try {
                int n = Integer.parseInt(value);
                if (n >= 1 && n <= MAX_CHUNK) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(
                    "--chunk takes a whole number from 1 to " + MAX_CHUNK + ", not '" + value + "'");
        }
    }

    /** Input bytes through the chosen view to standard output. */
    private interface Pipeline {

        void write(byte[] chunk, int length);

        void finish();

        String report();

        static Pipeline of(Options options, ByteSink stdout) {
            if (options.unescape()) {
                AuditView.Decoder decoder = AuditView.decoder(stdout);
                return new Pipeline() {
                    public void write(byte[] chunk, int length) {
                        decoder.write(chunk, 0, length);
                    }

                    public void finish() {
                        decoder.finish();
                    }

                    public String report() {
                        return "";
                    }
                };
            }
            SanitizerPolicy policy = SanitizerPolicy.of(options.cr());
            return switch (options.view()) {
                case "audit" -> {
                    AuditView.Encoder encoder = AuditView.encoder(stdout);
                    TerminalSanitizer counter =
                            options.report() ? TerminalSanitizer.create(policy, ByteSink.DISCARD) : null;
                    yield new Pipeline() {
                        public void write(byte[] chunk, int length) {
                            encoder.write(chunk, 0, length);
                            if (counter != null) {
                                counter.write(chunk, 0, length);
                            }
                        }

                        public void finish() {
                            encoder.finish();
                            if (counter != null) {
                                counter.finish();
                            }
                        }

                        public String report() {
                            return counter.report().toJson();
                        }
                    };
                }
                case "fenced" -> {
                    FencedWriter fence = Fence.writer(options.source(), stdout);
                    yield sanitizing(TerminalSanitizer.create(policy, fence), fence::finish);
                }
                default -> sanitizing(TerminalSanitizer.create(policy, stdout), () -> {});
            };
        }

        private static Pipeline sanitizing(TerminalSanitizer sanitizer, Runnable afterFinish) {
            return new Pipeline() {
                public void write(byte[] chunk, int length) {
                    sanitizer.write(chunk, 0, length);
                }

                public void finish() {
                    sanitizer.finish();
                    afterFinish.run();
                }

                public String report() {
                    return sanitizer.report().toJson();
                }
            };
        }
    }
}
