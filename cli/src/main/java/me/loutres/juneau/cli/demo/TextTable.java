package me.loutres.juneau.cli.demo;

import java.util.ArrayList;
import java.util.List;

/** Left-aligned columns, three spaces apart, upper-case headers: what {@code kubectl get} prints. */
final class TextTable {
    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... headers) {
        rows.add(headers);
    }

    TextTable row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = cells[i] == null || String.valueOf(cells[i]).isEmpty() ? "<none>" : String.valueOf(cells[i]);
        }
        rows.add(r);
        return this;
    }

    String render(String indent) {
        int cols = rows.get(0).length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder(indent);
            for (int i = 0; i < cols; i++) {
                line.append(i == cols - 1 ? r[i] : String.format("%-" + (width[i] + 3) + "s", r[i]));
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }
}
