package dev.airlock.evidence;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container shape the JDK's ZipOutputStream writes is accepted at every size, ZIP64's end
 * records included; the end-to-end tampering cases are in the gateway's EvidenceIntegrationTests.
 */
class ZipContainerTests {

    @TempDir
    Path dir;

    private Path zip(int entries) throws IOException {
        Path file = dir.resolve(entries + ".zip");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file));
                ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8)) {
            for (int i = 0; i < entries; i++) {
                byte[] bytes = ("line " + i + "\n").getBytes(StandardCharsets.UTF_8);
                ZipEntry entry = new ZipEntry("runs/" + i + "/stdout.txt");
                if (i >= 3) {
                    // Stored past the first few (as fast to write as to read; deflated ones cost a
                    // Deflater each): both kinds stand in every zip of this test.
                    CRC32 crc = new CRC32();
                    crc.update(bytes);
                    entry.setMethod(ZipEntry.STORED);
                    entry.setSize(bytes.length);
                    entry.setCrc(crc.getValue());
                }
                zip.putNextEntry(entry);
                zip.write(bytes);
                zip.closeEntry();
            }
        }
        return file;
    }

    @Test
    void acceptsWhatTheJdkWritesSmallAndWithZip64EndRecords() throws IOException {
        assertThatCode(() -> ZipContainer.check(zip(5))).doesNotThrowAnyException();
        // More than 65,535 entries: the end record's counts are ZIP64's.
        assertThatCode(() -> ZipContainer.check(zip(70_000))).doesNotThrowAnyException();
    }

    @Test
    void refusesALocalHeaderOrEndRecordThatSaysOtherwiseThanTheDirectory() throws IOException {
        Path checksum = zip(5);
        byte[] bytes = Files.readAllBytes(checksum);
        bytes[14] = 1; // the first entry's local checksum, which a descriptor's entry leaves at 0
        Files.write(checksum, bytes);
        assertThatThrownBy(() -> ZipContainer.check(checksum))
                .isInstanceOf(VerificationFailure.class)
                .hasMessageContaining("its local header and its directory entry differ");
        Path comment = zip(5);
        bytes = Files.readAllBytes(comment);
        bytes[bytes.length - 2] = 1; // a comment length with no comment after it
        Files.write(comment, bytes);
        assertThatThrownBy(() -> ZipContainer.check(comment))
                .isInstanceOf(VerificationFailure.class)
                .hasMessageContaining("the zip has a comment");
    }

    /**
     * Bytes hidden inside the last entry: its deflate stream ends early and is followed by a
     * descriptor that readers in file order take as its end (and then find no further entry), the
     * hidden bytes, and the descriptor the directory's sizes agree with.
     */
    @Test
    void refusesBytesHiddenAfterAnEntrysDeflateStream() throws IOException {
        byte[] bytes = Files.readAllBytes(zip(3));
        ByteBuffer zip = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int end = bytes.length - 22;
        int directory = zip.getInt(end + 16);
        int at = directory;
        for (int i = 0; i < 2; i++) {
            at += 46 + zip.getShort(at + 28) + zip.getShort(at + 30) + zip.getShort(at + 32);
        }
        int local = zip.getInt(at + 42);
        int compressed = zip.getInt(at + 20);
        int descriptor = local + 30 + zip.getShort(local + 26) + zip.getShort(local + 28) + compressed;
        byte[] hidden = "#!/bin/sh\nrm -rf /\n".getBytes(StandardCharsets.UTF_8);
        ByteBuffer inserted = ByteBuffer.allocate(16 + hidden.length).order(ByteOrder.LITTLE_ENDIAN);
        inserted.put(bytes, descriptor, 16).put(hidden);
        int grown = inserted.capacity();
        ByteBuffer tampered = ByteBuffer.allocate(bytes.length + grown).order(ByteOrder.LITTLE_ENDIAN);
        tampered.put(bytes, 0, descriptor).put(inserted.array()).put(bytes, descriptor, bytes.length - descriptor);
        tampered.putInt(descriptor + grown + 8, compressed + grown); // the real descriptor's size
        tampered.putInt(at + grown + 20, compressed + grown); // the directory's
        tampered.putInt(end + grown + 16, directory + grown); // where the directory now starts
        Path file = dir.resolve("hidden.zip");
        Files.write(file, tampered.array());
        assertThatThrownBy(() -> ZipContainer.check(file))
                .isInstanceOf(VerificationFailure.class)
                .hasMessageContaining("its compressed data does not end where the directory says");
    }

    @Test
    void refusesABundleWithBytesAfterItsEndOrBeforeItsFirstEntry() throws IOException {
        Path trailing = zip(3);
        Files.write(trailing, new byte[] {0}, StandardOpenOption.APPEND);
        assertThatThrownBy(() -> ZipContainer.check(trailing))
                .isInstanceOf(VerificationFailure.class)
                .hasMessageContaining("does not end with the zip's end record");
        Path large = zip(70_000);
        Path prefixed = dir.resolve("prefixed.zip");
        Files.write(prefixed, new byte[] {'#', '!', '\n'});
        Files.write(prefixed, Files.readAllBytes(large), StandardOpenOption.APPEND);
        assertThatThrownBy(() -> ZipContainer.check(prefixed))
                .isInstanceOf(VerificationFailure.class)
                .hasMessageContaining("bundle:");
    }
}
