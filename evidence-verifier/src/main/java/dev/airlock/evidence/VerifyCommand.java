package dev.airlock.evidence;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code java -jar airlock-evidence-verifier.jar <bundle.zip> --keys <keys.json> [--anchor <anchor.json>]…}:
 * verifies an evidence bundle offline and prints each check. Exit status 0 when every check
 * passed, 1 naming the first that failed, 2 for a usage error or a file that cannot be read.
 */
public final class VerifyCommand {

    private VerifyCommand() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns its exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Path bundle = null;
        Path keys = null;
        List<Path> anchors = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if ((arg.equals("--keys") || arg.equals("--anchor")) && i + 1 < args.length) {
                Path path = Path.of(args[++i]);
                if (arg.equals("--keys")) {
                    keys = path;
                } else {
                    anchors.add(path);
                }
            } else if (!arg.startsWith("--") && bundle == null) {
                bundle = Path.of(arg);
            } else {
                return usage(err, "unexpected argument " + arg);
            }
        }
        if (bundle == null || keys == null) {
            return usage(err, bundle == null ? "no bundle given" : "no --keys given");
        }
        PublicKeys publicKeys;
        List<Anchor> kept = new ArrayList<>();
        try {
            publicKeys = PublicKeys.parse(Files.readString(keys, StandardCharsets.UTF_8));
            for (Path anchor : anchors) {
                kept.add(Anchor.parse(Files.readString(anchor, StandardCharsets.UTF_8)));
            }
        } catch (IOException | RuntimeException e) {
            err.println("cannot read the keys or an anchor: " + e.getMessage());
            return 2;
        }
        try {
            BundleVerifier.Verified verified = new BundleVerifier(publicKeys, kept, out).verify(bundle);
            out.printf(
                    "VERIFIED: %s, tenant %s, %d run(s), %d audit event(s), chain head %s%n",
                    bundle.getFileName(), verified.tenant(), verified.runs(), verified.events(), verified.head());
            return 0;
        } catch (VerificationFailure e) {
            out.println("FAILED: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("cannot read the bundle " + bundle + ": " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            out.println("FAILED: the bundle is malformed: " + e);
            return 1;
        } catch (OutOfMemoryError e) {
            // Only a bundle whose signature verified gets this far with large entries: run again with more heap (-Xmx).
            out.println("FAILED: the bundle needs more memory than this verifier was given (" + e.getMessage() + ")");
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println(
                "usage: java -jar airlock-evidence-verifier.jar <bundle.zip> --keys <keys.json> [--anchor <anchor.json>]...");
        return 2;
    }
}
