package dev.sluice.reference.golden;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a scenario's Scenario.java in-process (javax.tools) against the recorder's own classpath, and loads it
 * in a class loader of its own: every scenario names its class Scenario, in the default package.
 */
final class ScenarioCompiler implements AutoCloseable {
    private final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager files;

    ScenarioCompiler() {
        if (compiler == null) throw new IllegalStateException("no Java compiler: the recorder needs a JDK, not a JRE");
        files = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8);
    }

    GoldenScenario load(Path source, Path classesDir) throws IOException, ReflectiveOperationException {
        Files.createDirectories(classesDir);
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", classesDir.toString(), "-proc:none", "-Xlint:-options");
        Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(source.toFile());
        if (!compiler.getTask(null, files, diagnostics, options, null, units).call()) {
            throw new IllegalArgumentException("Scenario.java does not compile:\n" + diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> "  line " + d.getLineNumber() + ": " + d.getMessage(null))
                .collect(Collectors.joining("\n")));
        }
        URLClassLoader loader = new URLClassLoader(new URL[] {classesDir.toUri().toURL()}, getClass().getClassLoader());
        Class<?> type = loader.loadClass("Scenario");
        if (!GoldenScenario.class.isAssignableFrom(type)) throw new IllegalArgumentException("class Scenario does not implement GoldenScenario");
        return (GoldenScenario) type.getDeclaredConstructor().newInstance();
    }

    @Override
    public void close() throws IOException {
        files.close();
    }
}
