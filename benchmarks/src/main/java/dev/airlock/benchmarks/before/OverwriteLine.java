package dev.airlock.benchmarks.before;

import dev.airlock.sanitizer.CrPolicy;

import java.util.Arrays;

/**
 * The current line under {@link CrPolicy#OVERWRITE}: cells of one code point each and a
 * cursor. Bounded: it never holds more than {@code maxCells} cells.
 */
final class OverwriteLine {

    private final int maxCells;
    private int[] cells = new int[64];
    private int length;
    private int cursor;

    OverwriteLine(int maxCells) {
        this.maxCells = maxCells;
    }

    /** Whether the next {@link #put} needs the line written out first. */
    boolean isFull() {
        return cursor == maxCells;
    }

    void put(int codePoint) {
        if (cursor == cells.length) {
            cells = Arrays.copyOf(cells, Math.min(maxCells, cells.length * 2));
        }
        cells[cursor++] = codePoint;
        if (cursor > length) {
            length = cursor;
        }
    }

    void carriageReturn() {
        cursor = 0;
    }

    void backspace() {
        if (cursor > 0) {
            cursor--;
        }
    }

    int length() {
        return length;
    }

    int cell(int index) {
        return cells[index];
    }

    void clear() {
        length = 0;
        cursor = 0;
    }
}
