package dev.airlock.sanitizer;

import java.io.ByteArrayOutputStream;
import java.util.Random;

/**
 * Random byte strings biased toward what breaks terminal parsers: ESC, BEL, backslash, CAN,
 * SUB, C1 code points, CR, BS, invalid UTF-8, invisible characters and emoji joiners.
 */
final class HostileBytes {

    private static final byte[][] PIECES = {
        {0x1B},
        {0x1B, '['},
        {0x1B, ']'},
        {0x1B, 'P'},
        {0x1B, '_'},
        {0x1B, '^'},
        {0x1B, 'X'},
        {0x1B, '\\'},
        {0x1B, '('},
        {0x07},
        {'\\'},
        {0x18},
        {0x1A},
        {0x0D},
        {0x0A},
        {0x0D, 0x0A},
        {0x08},
        {0x09},
        {0x7F},
        {0x00},
        {(byte) 0xC2, (byte) 0x9B},
        {(byte) 0xC2, (byte) 0x9D},
        {(byte) 0xC2, (byte) 0x9C},
        {(byte) 0xC2, (byte) 0x90},
        {(byte) 0xC2, (byte) 0x85},
        {(byte) 0x9B},
        {(byte) 0x9C},
        {(byte) 0x9D},
        {(byte) 0x9E},
        {(byte) 0xFF},
        {(byte) 0xC3},
        {(byte) 0xE2, (byte) 0x82},
        {(byte) 0xF0, (byte) 0x9F},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xC3, (byte) 0x9C},
        {(byte) 0xE2, (byte) 0x80, (byte) 0x8D},
        {(byte) 0xE2, (byte) 0x80, (byte) 0x8B},
        {(byte) 0xE2, (byte) 0x80, (byte) 0xAE},
        {(byte) 0xE2, (byte) 0x80, (byte) 0xA8},
        {(byte) 0xEF, (byte) 0xB8, (byte) 0x8F},
        {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
        {(byte) 0xF3, (byte) 0xA0, (byte) 0x80, (byte) 0x81},
        {(byte) 0xF0, (byte) 0x9F, (byte) 0x91, (byte) 0xA8},
        {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
        {'3', '1', 'm'},
        {';'},
        {'0'},
        {'m'},
        {'a'},
        {' '},
        {'K'},
        {'[', '2', 'J'},
    };

    private HostileBytes() {}

    static byte[] next(Random random, int maxPieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pieces = random.nextInt(maxPieces + 1);
        for (int i = 0; i < pieces; i++) {
            if (random.nextInt(8) == 0) {
                out.write(random.nextInt(256));
            } else {
                out.writeBytes(PIECES[random.nextInt(PIECES.length)]);
            }
        }
        return out.toByteArray();
    }
}
