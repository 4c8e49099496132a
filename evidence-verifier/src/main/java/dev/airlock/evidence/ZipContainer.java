package dev.airlock.evidence;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A bundle's zip container, checked byte by byte against the one shape Airlock writes (the JDK's
 * {@code ZipOutputStream}): the entries one after another from the file's first byte, the central
 * directory right after the last, the end record (and ZIP64's, for large bundles) right after that
 * and last in the file; no comment, no file attributes, no extra field but ZIP64's, no flag but the
 * data descriptor's and UTF-8's, each entry's local name its directory name. A zip reader reads
 * either the directory or the entries in file order, and some honour extra fields (an Info-ZIP
 * Unicode path names the file it extracts): with nothing anywhere else, every reader sees the
 * entries the verifier checked, under their names.
 */
final class ZipContainer {

    private static final int LOCAL = 0x04034b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int END = 0x06054b50;
    private static final int END64 = 0x06064b50;
    private static final int LOCATOR64 = 0x07064b50;
    private static final int DESCRIPTOR = 0x08074b50;
    private static final int ZIP64_EXTRA = 0x0001;
    /** The data descriptor (bit 3) and UTF-8 names (bit 11). */
    private static final int ALLOWED_FLAGS = 0x0808;

    private static final long MAGIC32 = 0xFFFFFFFFL;
    private static final int MAGIC16 = 0xFFFF;
    /** The largest central directory read: about two million entries. */
    private static final long MAX_DIRECTORY = 256L * 1024 * 1024;

    private ZipContainer() {}

    /** Checks the container of {@code bundle}; throws {@link VerificationFailure} naming what is out of shape. */
    static void check(Path bundle) throws IOException {
        try (FileChannel file = FileChannel.open(bundle, StandardOpenOption.READ)) {
            new Reader(file).check();
        }
    }

    private static final class Reader {

        private final FileChannel file;
        private final long size;

        Reader(FileChannel file) throws IOException {
            this.file = file;
            this.size = file.size();
        }

        void check() throws IOException {
            if (size < 22) {
                throw fail("bundle: shorter than a zip's end record");
            }
            ByteBuffer end = read(size - 22, 22);
            if (end.getInt(0) != END) {
                throw fail("bundle: the file does not end with the zip's end record (bytes after it, or a comment)");
            }
            if (u16(end, 4) != 0 || u16(end, 6) != 0 || u16(end, 8) != u16(end, 10)) {
                throw fail("bundle: the zip spans several disks");
            }
            if (u16(end, 20) != 0) {
                throw fail("bundle: the zip has a comment; a bundle has none");
            }
            long entries = u16(end, 10);
            long directorySize = u32(end, 12);
            long directoryOffset = u32(end, 16);
            long directoryEnd = size - 22;
            if (entries == MAGIC16 || directorySize == MAGIC32 || directoryOffset == MAGIC32) {
                if (size < 22 + 20 + 56) {
                    throw fail("bundle: a ZIP64 end record is missing");
                }
                ByteBuffer locator = read(size - 22 - 20, 20);
                if (locator.getInt(0) != LOCATOR64 || locator.getInt(4) != 0 || locator.getInt(16) != 1) {
                    throw fail("bundle: the ZIP64 end record's locator is not right before the end record");
                }
                long end64 = locator.getLong(8);
                ByteBuffer record = read(end64, 56);
                // 44 bytes after the size field: the record without extensible data, as the JDK writes it.
                if (record.getInt(0) != END64 || record.getLong(4) != 44 || end64 + 56 != size - 22 - 20) {
                    throw fail("bundle: something stands between the zip's end records");
                }
                if (record.getInt(16) != 0 || record.getInt(20) != 0 || record.getLong(24) != record.getLong(32)) {
                    throw fail("bundle: the zip spans several disks");
                }
                if (!sameOrMarked(entries, MAGIC16, record.getLong(32))
                        || !sameOrMarked(directorySize, MAGIC32, record.getLong(40))
                        || !sameOrMarked(directoryOffset, MAGIC32, record.getLong(48))) {
                    throw fail("bundle: the zip's two end records differ");
                }
                entries = record.getLong(32);
                directorySize = record.getLong(40);
                directoryOffset = record.getLong(48);
                directoryEnd = end64;
            }
            if (directoryOffset < 0 || directorySize < 0 || directoryOffset + directorySize != directoryEnd) {
                throw fail("bundle: the zip's directory is not where its end record says (bytes before the first"
                        + " entry, or between the directory and the end record)");
            }
            if (directorySize > MAX_DIRECTORY) {
                throw fail("bundle: the zip's directory is larger than " + MAX_DIRECTORY + " bytes");
            }
            ByteBuffer directory = read(directoryOffset, (int) directorySize);
            long next = 0;
            int at = 0;
            for (long i = 0; i < entries; i++) {
                if (at + 46 > directorySize || directory.getInt(at) != CENTRAL) {
                    throw fail("bundle: the zip's directory holds fewer entries than it says");
                }
                int nameLength = u16(directory, at + 28);
                int extraLength = u16(directory, at + 30);
                int commentLength = u16(directory, at + 32);
                if (at + 46L + nameLength + extraLength + commentLength > directorySize) {
                    throw fail("bundle: the zip's directory holds fewer entries than it says");
                }
                byte[] name = new byte[nameLength];
                directory.get(at + 46, name);
                String where = "bundle: entry " + Json.quote(new String(name, StandardCharsets.UTF_8));
                int flags = u16(directory, at + 8);
                int method = u16(directory, at + 10);
                if ((flags & ~ALLOWED_FLAGS) != 0
                        || (method != 0 && method != 8)
                        || (method == 0 && (flags & 0x08) != 0)) {
                    throw fail(where + ": flags or compression a bundle does not use");
                }
                if (commentLength != 0) {
                    throw fail(where + ": has a comment; a bundle's entries have none");
                }
                if (u16(directory, at + 34) != 0 || u16(directory, at + 36) != 0 || u32(directory, at + 38) != 0) {
                    throw fail(where + ": has file attributes; a bundle's entries have none");
                }
                long[] sizes = {u32(directory, at + 24), u32(directory, at + 20), u32(directory, at + 42)};
                zip64(directory.slice(at + 46 + nameLength, extraLength).order(ByteOrder.LITTLE_ENDIAN), sizes, where);
                Sizes entry = new Sizes(u32(directory, at + 16), sizes[1], sizes[0]);
                if (sizes[2] != next) {
                    throw fail(
                            where + ": does not start where the entry before it ends (bytes hidden between entries)");
                }
                next = local(sizes[2], name, flags, method, entry, where);
                at += 46 + nameLength + extraLength + commentLength;
            }
            if (at != directorySize) {
                throw fail("bundle: the zip's directory holds more than its entries");
            }
            if (next != directoryOffset) {
                throw fail("bundle: something stands between the last entry and the zip's directory");
            }
        }

        /**
         * Checks the entry's local header at {@code offset} and its data descriptor against the
         * directory's {@code entry}; returns where the entry (and its descriptor) ends.
         */
        private long local(long offset, byte[] name, int flags, int method, Sizes entry, String where)
                throws IOException {
            ByteBuffer header = read(offset, 30);
            if (header.getInt(0) != LOCAL) {
                throw fail(where + ": no local header where the directory says it starts");
            }
            if (u16(header, 6) != flags || u16(header, 8) != method) {
                throw fail(where + ": its local header and its directory entry differ");
            }
            int nameLength = u16(header, 26);
            int extraLength = u16(header, 28);
            ByteBuffer rest = read(offset + 30, nameLength + extraLength);
            byte[] localName = new byte[nameLength];
            rest.get(0, localName);
            if (!Arrays.equals(localName, name)) {
                throw fail(where + ": its local header names another entry");
            }
            long[] sizes = {u32(header, 22), u32(header, 18)};
            zip64(rest.slice(nameLength, extraLength).order(ByteOrder.LITTLE_ENDIAN), sizes, where);
            Sizes stated = new Sizes(u32(header, 14), sizes[1], sizes[0]);
            long end = offset + 30 + nameLength + extraLength + entry.compressed();
            if (method == 8) {
                inflatesExactly(offset + 30 + nameLength + extraLength, entry, where);
            }
            if ((flags & 0x08) == 0) {
                if (!stated.equals(entry)) {
                    throw fail(where + ": its local header and its directory entry differ");
                }
                return end;
            }
            // Sizes and checksum follow the data, in a descriptor; the local header holds none.
            if (!stated.equals(new Sizes(0, 0, 0)) || extraLength != 0) {
                throw fail(where + ": its local header and its directory entry differ");
            }
            boolean wide = entry.compressed() >= MAGIC32 || entry.uncompressed() >= MAGIC32;
            ByteBuffer descriptor = read(end, wide ? 24 : 16);
            Sizes described = wide
                    ? new Sizes(u32(descriptor, 4), descriptor.getLong(8), descriptor.getLong(16))
                    : new Sizes(u32(descriptor, 4), u32(descriptor, 8), u32(descriptor, 12));
            if (descriptor.getInt(0) != DESCRIPTOR || !described.equals(entry)) {
                throw fail(where + ": its data does not end where the directory says, or not as it says");
            }
            return end + descriptor.capacity();
        }

        /**
         * Inflates the entry's compressed bytes: the deflate stream must end exactly where the
         * directory says and give exactly the entry's bytes (a stream that ends early would leave
         * room for bytes no reader shows, one that inflates past the entry's size is refused as it
         * goes, so a compression bomb costs no more than the size it states).
         */
        private void inflatesExactly(long start, Sizes entry, String where) throws IOException {
            Inflater inflater = new Inflater(true);
            try {
                ByteBuffer input = ByteBuffer.allocate(64 * 1024);
                byte[] output = new byte[64 * 1024];
                CRC32 crc = new CRC32();
                long position = start;
                long end = start + entry.compressed();
                long produced = 0;
                while (!inflater.finished()) {
                    if (inflater.needsInput()) {
                        if (position >= end) {
                            break;
                        }
                        input.clear().limit((int) Math.min(input.capacity(), end - position));
                        int read = file.read(input, position);
                        if (read <= 0) {
                            throw new EOFException();
                        }
                        position += read;
                        inflater.setInput(input.flip());
                    }
                    int inflated = inflater.inflate(output);
                    if (inflated == 0 && inflater.needsDictionary()) {
                        break;
                    }
                    crc.update(output, 0, inflated);
                    produced += inflated;
                    if (produced > entry.uncompressed()) {
                        break;
                    }
                }
                if (!inflater.finished()
                        || inflater.getRemaining() != 0
                        || position != end
                        || produced != entry.uncompressed()
                        || crc.getValue() != entry.crc()) {
                    throw fail(where + ": its compressed data does not end where the directory says, or does not"
                            + " give the entry's bytes");
                }
            } catch (DataFormatException e) {
                throw fail(where + ": its compressed data is not a deflate stream");
            } finally {
                inflater.end();
            }
        }

        /**
         * Reads a ZIP64 extra field into {@code sizes} (uncompressed, compressed, offset: each read
         * from it when the header holds the 32-bit marker); any other extra field fails.
         */
        private static void zip64(ByteBuffer extra, long[] sizes, String where) {
            int marked = 0;
            for (long value : sizes) {
                marked += value == MAGIC32 ? 1 : 0;
            }
            if (extra.limit() == 0 && marked == 0) {
                return;
            }
            int id = extra.limit() >= 4 ? u16(extra, 0) : -1;
            if (id != ZIP64_EXTRA) {
                throw fail(where + ": has an extra field (" + String.format("0x%04x", id)
                        + "); a bundle's entries have none but ZIP64's");
            }
            // One ZIP64 field, holding exactly the values the header marks, each a size or offset.
            if (u16(extra, 2) != 8 * marked || extra.limit() != 4 + 8 * marked) {
                throw fail(where + ": a ZIP64 extra field that does not hold exactly the values its header marks");
            }
            int field = 4;
            for (int i = 0; i < sizes.length; i++) {
                if (sizes[i] == MAGIC32) {
                    sizes[i] = extra.getLong(field);
                    field += 8;
                    if (sizes[i] < 0) {
                        throw fail(where + ": a negative size or offset");
                    }
                }
            }
        }

        private ByteBuffer read(long position, int length) throws IOException {
            if (position < 0 || length < 0 || position > size - length) {
                throw fail("bundle: the zip points past the end of the file");
            }
            ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            while (buffer.hasRemaining()) {
                if (file.read(buffer, position + buffer.position()) < 0) {
                    throw new EOFException();
                }
            }
            return buffer.flip();
        }
    }

    /** An entry's checksum and sizes, as its directory entry, local header or descriptor states them. */
    private record Sizes(long crc, long compressed, long uncompressed) {}

    /** Whether an end record's {@code value} is the ZIP64 one or the marker that says to read that. */
    private static boolean sameOrMarked(long value, long marker, long zip64) {
        return value == marker || value == zip64;
    }

    private static int u16(ByteBuffer buffer, int at) {
        return Short.toUnsignedInt(buffer.getShort(at));
    }

    private static long u32(ByteBuffer buffer, int at) {
        return Integer.toUnsignedLong(buffer.getInt(at));
    }

    private static VerificationFailure fail(String message) {
        return new VerificationFailure(message);
    }
}
