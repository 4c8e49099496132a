package dev.airlock.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * Each Maven module's feature packages as Spring Modulith application modules: no cycles, no
 * reaching into another module's internal sub-packages (such as its {@code web} adapters), and no
 * dependency a package's {@code @ApplicationModule(allowedDependencies)} does not declare. The
 * module diagrams in {@code docs/modules/} are generated from the same model and must match it;
 * after a deliberate change, regenerate them with {@code -Dairlock.docs.update=true}.
 */
class ModularityTests {

    private static final Path DOCS = Path.of("..", "docs", "modules");

    @ParameterizedTest
    @ValueSource(strings = {"dev.airlock.gateway", "dev.airlock.approval", "dev.airlock.persistence"})
    void theFeaturePackagesAreWellFormedModulesAndTheirDiagramsAreCurrent(String root) throws IOException {
        ApplicationModules modules = ApplicationModules.of(root);
        modules.verify();

        String name = root.substring(root.lastIndexOf('.') + 1);
        Path generated = Path.of("target", "module-docs", name);
        new Documenter(modules, Documenter.Options.defaults().withOutputFolder(generated.toString()))
                .writeModulesAsPlantUml()
                .writeIndividualModulesAsPlantUml();
        Path documented = DOCS.resolve(name);
        if (Boolean.getBoolean("airlock.docs.update")) {
            copy(generated, documented);
        }
        Map<String, String> want = contents(generated);
        Map<String, String> have = contents(documented);
        java.util.Set<String> stale = new java.util.TreeSet<>(want.keySet());
        stale.addAll(have.keySet());
        stale.removeIf(file -> java.util.Objects.equals(want.get(file), have.get(file)));
        assertThat(stale)
                .as(
                        "docs/modules/%s is out of date: run this test with -Dairlock.docs.update=true and commit the result",
                        name)
                .isEmpty();
    }

    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> list = Files.list(dir)) {
                for (Path file :
                        list.filter(f -> f.toString().endsWith(".puml")).toList()) {
                    // The Documenter writes relations in no stable order: compare the lines, sorted.
                    files.put(
                            file.getFileName().toString(),
                            Files.readString(file).lines().sorted().toList().toString());
                }
            }
        }
        return files;
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        Map<String, String> now = contents(from);
        Map<String, String> before = contents(to);
        for (String stale : before.keySet()) {
            if (!now.containsKey(stale)) {
                Files.delete(to.resolve(stale));
            }
        }
        for (String file : now.keySet()) {
            // A file whose relations are unchanged stays as it was: regenerating changes only what moved.
            if (!now.get(file).equals(before.get(file))) {
                Files.copy(from.resolve(file), to.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
