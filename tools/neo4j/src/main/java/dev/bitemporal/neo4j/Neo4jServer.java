package dev.bitemporal.neo4j;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

/**
 * Runs a Neo4j Community 5.26 DBMS in this JVM with Bolt on 127.0.0.1 and
 * password authentication, for tests and benchmarks (no Docker, no tarball).
 *
 * <pre>
 * java -cp 'target/classes:target/lib/*' dev.bitemporal.neo4j.Neo4jServer \
 *      --home DIR [--port 7687] [--http-port 0] [--pagecache 256m] [--conf key=value ...]
 * </pre>
 *
 * Every option falls back to an environment variable: NEO4J_HOME_DIR, NEO4J_PORT,
 * NEO4J_HTTP_PORT (0 = HTTP disabled), NEO4J_PAGECACHE. The password is read only from
 * NEO4J_PASSWORD (default "bitemporal-test", at least 8 characters) so that it does not
 * show in the process list. Prints "NEO4J_READY bolt://127.0.0.1:PORT" once serving with
 * that password (Bolt itself opens a little earlier, while the password may still be the
 * initial one) and shuts down cleanly on SIGTERM/SIGINT.
 */
public final class Neo4jServer {

    private Neo4jServer() {}

    private static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v;
    }

    private static void usage(String msg) {
        System.err.println("Neo4jServer: " + msg);
        System.err.println("usage: Neo4jServer --home DIR [--port N] [--http-port N|0] "
                + "[--pagecache SIZE] [--conf key=value]...");
        System.exit(2);
    }

    public static void main(String[] args) throws Exception {
        String home = env("NEO4J_HOME_DIR", null);
        int port = Integer.parseInt(env("NEO4J_PORT", "7687"));
        int httpPort = Integer.parseInt(env("NEO4J_HTTP_PORT", "0"));
        String pagecache = env("NEO4J_PAGECACHE", "256m");
        String password = env("NEO4J_PASSWORD", "bitemporal-test");
        Map<String, String> extra = new LinkedHashMap<>();

        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                usage("missing value for " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--home" -> home = v;
                case "--port" -> port = Integer.parseInt(v);
                case "--http-port" -> httpPort = Integer.parseInt(v);
                case "--pagecache" -> pagecache = v;
                case "--conf" -> {
                    int eq = v.indexOf('=');
                    if (eq <= 0) {
                        usage("--conf expects key=value, got " + v);
                    }
                    extra.put(v.substring(0, eq).trim(), v.substring(eq + 1).trim());
                }
                default -> usage("unknown option " + a);
            }
        }
        if (home == null) {
            usage("--home (or NEO4J_HOME_DIR) is required");
        }
        if (password.length() < 8) {
            usage("NEO4J_PASSWORD must be at least 8 characters (Neo4j 5 minimum)");
        }

        Path homeDir = Path.of(home).toAbsolutePath();
        Files.createDirectories(homeDir);

        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("server.default_listen_address", "127.0.0.1");
        conf.put("server.default_advertised_address", "127.0.0.1");
        conf.put("server.bolt.enabled", "true");
        conf.put("server.bolt.listen_address", "127.0.0.1:" + port);
        conf.put("server.bolt.advertised_address", "127.0.0.1:" + port);
        conf.put("server.bolt.tls_level", "DISABLED");
        conf.put("server.http.enabled", Boolean.toString(httpPort > 0));
        if (httpPort > 0) {
            conf.put("server.http.listen_address", "127.0.0.1:" + httpPort);
            conf.put("server.http.advertised_address", "127.0.0.1:" + httpPort);
        }
        conf.put("server.https.enabled", "false");
        conf.put("dbms.security.auth_enabled", "true");
        conf.put("server.memory.pagecache.size", pagecache);
        // Test/bench database: keep transaction logs from piling up on disk.
        conf.put("db.tx_log.rotation.retention_policy", "2 files");
        // Default is 5 s of idle waiting for the Bolt worker pool on shutdown.
        conf.put("internal.server.bolt.thread_pool_shutdown_wait_time", "1s");
        conf.putAll(extra);

        // The embedded builder takes raw "key=value" settings only from a file, which
        // also lets Neo4j validate them strictly (a typo fails the start).
        Path confFile = homeDir.resolve("neo4j-launcher.conf");
        StringBuilder text = new StringBuilder("# written by Neo4jServer on every start\n");
        conf.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(confFile, text.toString());

        long t0 = System.nanoTime();
        DatabaseManagementService dbms;
        try {
            dbms = new DatabaseManagementServiceBuilder(homeDir)
                    .loadPropertiesFromFile(confFile)
                    .build();
        } catch (Throwable t) {
            System.err.println("NEO4J_FAILED could not start the DBMS");
            t.printStackTrace();
            System.exit(1); // leftover non-daemon threads must not keep the JVM alive
            return;
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("NEO4J_STOPPING");
            System.out.flush();
            try {
                dbms.shutdown();
            } catch (Throwable t) {
                t.printStackTrace();
            } finally {
                System.out.println("NEO4J_STOPPED");
                System.out.flush();
                stopped.countDown();
            }
        }, "neo4j-shutdown"));

        try {
            setPassword(dbms, homeDir, password);
        } catch (Exception e) {
            System.err.println("NEO4J_FAILED could not set the password of user neo4j");
            e.printStackTrace();
            System.exit(1); // runs the shutdown hook
        }

        System.out.printf("NEO4J_READY bolt://127.0.0.1:%d (home %s, started in %d ms)%n",
                port, homeDir, (System.nanoTime() - t0) / 1_000_000);
        System.out.flush();
        stopped.await();
    }

    /**
     * The built-in "neo4j" user starts with password "neo4j" and "change required"; set
     * ours through the system database. That costs a few seconds of Cypher warm-up, so a
     * marker file (SHA-256 of the password) in the home directory skips it on restarts
     * with the same password. Re-setting the same password is reported as an error by
     * Neo4j, which we ignore.
     */
    private static void setPassword(DatabaseManagementService dbms, Path homeDir, String password)
            throws Exception {
        Path marker = homeDir.resolve("neo4j-launcher.password.sha256");
        String digest = HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8)));
        if (Files.exists(marker) && Files.readString(marker).trim().equals(digest)) {
            return;
        }
        GraphDatabaseService system = dbms.database("system");
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
        } catch (RuntimeException e) {
            String msg = String.valueOf(e.getMessage());
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                msg += " | " + c.getMessage();
            }
            if (!msg.contains("cannot be the same")) {
                throw e;
            }
        }
        Files.writeString(marker, digest + "\n");
    }
}
