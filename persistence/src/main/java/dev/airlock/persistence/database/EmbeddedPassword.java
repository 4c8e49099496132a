package dev.airlock.persistence.database;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import javax.sql.DataSource;

/**
 * The embedded PostgreSQL's superuser password. The library creates the server with trust
 * authentication, which would let anything on the host's loopback (a tool given
 * {@code sandbox.network: true}, say) connect as superuser; so Airlock gives the superuser a random
 * password, kept in a file only the gateway's user may read, and requires it (SCRAM) for every
 * connection, local or TCP.
 */
final class EmbeddedPassword {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Host-based authentication: a password for everyone, everywhere. */
    static final String HBA = """
            # Written by Airlock: every connection needs the superuser's password (SCRAM).
            local all all scram-sha-256
            host all all 127.0.0.1/32 scram-sha-256
            host all all ::1/128 scram-sha-256
            """;

    private EmbeddedPassword() {}

    /** The password in {@code file}, made and written (owner-only) the first time. */
    static String readOrCreate(Path file) throws IOException {
        if (Files.exists(file)) {
            String password = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (password.matches("[A-Za-z0-9_-]{32,}")) {
                return password;
            }
            throw new IOException("the embedded PostgreSQL's password file " + file + " is not one Airlock wrote");
        }
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Files.createDirectories(file.getParent());
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            return readOrCreate(file);
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, password, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        return password;
    }

    /** Sets the password and requires it from now on (the server reloads its configuration). */
    static void require(DataSource superuser, Path dataDirectory, String password) throws IOException {
        Files.writeString(dataDirectory.resolve("pg_hba.conf"), HBA, StandardCharsets.US_ASCII);
        try (Connection connection = superuser.getConnection();
                Statement statement = connection.createStatement()) {
            // The password is base64url (checked above), so it needs no escaping in the literal.
            statement.execute("ALTER ROLE postgres PASSWORD '" + password + "'");
            statement.execute("SELECT pg_reload_conf()");
        } catch (SQLException e) {
            throw new IOException("could not set the embedded PostgreSQL's password: " + e.getMessage(), e);
        }
    }
}
