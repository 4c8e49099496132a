import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the check a sandboxed run makes of its recorded mounts against today's configuration costs
 * (docs/benchmarks.md, "A run's mount check"), for a configuration of many tools: two builds of
 * the gateway's classes, each in its own class loader, alternating in one process, by the thread's
 * CPU time per check, printed with the ratio of the second to the first.
 *
 * <p>Usage: {@code java -cp <shared-kernel classes> benchmarks/load/MountCheckCost.java <classes before>
 * <classes after> [tools, default 1000] [checks per round, default 200]}. The classes directories are
 * {@code gateway-api/target/classes} of two checkouts; {@code shared-kernel/target/classes} (one of
 * them) goes on the class path, as both builds share it.
 */
public class MountCheckCost {

    /** One build's MountRules, today's configuration built once, and the recorded mounts of one run. */
    private record Build(String name, Method problem, Object today, Object recorded, Object recordedSecrets) {

        Object check() throws ReflectiveOperationException {
            return problem.invoke(today, recorded, recordedSecrets);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: MountCheckCost <classes before> <classes after> [tools] [checks]");
            System.exit(2);
        }
        int tools = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        int checks = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        List<Build> builds = List.of(build("before", Path.of(args[0]), tools), build("after", Path.of(args[1]), tools));
        for (Build build : builds) {
            if (build.check() != null) {
                throw new IllegalStateException(build.name() + ": the configuration breaks a rule: " + build.check());
            }
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf("%d tools, 3 mounts each; CPU time per run's check%n", tools);
        for (int round = 1; round <= 4; round++) {
            long[] nanos = new long[builds.size()];
            for (int i = 0; i < builds.size(); i++) {
                long start = threads.getCurrentThreadCpuTime();
                for (int n = 0; n < checks; n++) {
                    builds.get(i).check();
                }
                nanos[i] = (threads.getCurrentThreadCpuTime() - start) / checks;
            }
            System.out.printf(
                    "round %d: before %,d µs, after %,d µs, after/before %.4f%s%n",
                    round,
                    nanos[0] / 1000,
                    nanos[1] / 1000,
                    (double) nanos[1] / nanos[0],
                    round == 1 ? " (warm-up)" : "");
        }
    }

    private static Build build(String name, Path classes, int tools) throws Exception {
        ClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, MountCheckCost.class.getClassLoader());
        Class<?> rules = loader.loadClass("dev.airlock.gateway.capture.MountRules");
        Class<?> policy = loader.loadClass("dev.airlock.gateway.capture.SandboxPolicy");
        Constructor<?> newPolicy = policy.getConstructor(
                boolean.class, List.class, List.class, int.class, long.class, long.class, int.class, long.class);
        Method mountsOf = rules.getMethod("mountsOf", String.class, policy, Path.class);
        Method secretFilesOf = rules.getMethod("secretFilesOf", String.class, Map.class);
        Method of = rules.getMethod("of", List.class, Path.class, Path.class, List.class);
        Method problem = rules.getMethod("problem", List.class, List.class);
        List<Object> mounts = new ArrayList<>();
        List<Object> secrets = new ArrayList<>();
        Object recorded = null;
        Object recordedSecrets = null;
        for (int i = 0; i < tools; i++) {
            String owner = "airlock.tenants.t" + (i % 10) + ".tools.tool" + i;
            Object toolPolicy = newPolicy.newInstance(
                    false,
                    List.of("/srv/reference/" + i, "/srv/shared/" + (i % 7)),
                    List.of("/srv/scratch/" + i),
                    16,
                    1L << 20,
                    1L << 20,
                    16,
                    1L << 20);
            List<?> toolMounts = (List<?>) mountsOf.invoke(null, owner, toolPolicy, null);
            List<?> toolSecrets =
                    (List<?>) secretFilesOf.invoke(null, owner, Map.of("TOKEN", "file:/srv/secrets/" + i + "/token"));
            mounts.addAll(toolMounts);
            secrets.addAll(toolSecrets);
            if (i == tools / 2) {
                recorded = toolMounts;
                recordedSecrets = toolSecrets;
            }
        }
        Object today = of.invoke(null, mounts, Path.of("/var/airlock/work"), Path.of("/var/airlock/data"), secrets);
        return new Build(name, problem, today, recorded, recordedSecrets);
    }
}
