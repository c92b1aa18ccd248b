package me.loutres.juneau.controller.testing;

import me.loutres.juneau.controller.JuneauController;

/** Reads a controller through its public {@code /metrics} text, as an operator's dashboard would. */
public final class Scrape {
    private Scrape() {
    }

    /** The value of the series {@code name{tag="value"}}, NaN when absent (or NaN, as on a standby). */
    public static double value(JuneauController c, String name, String tag, String tagValue) {
        String prefix = name + "{";
        String wanted = tag + "=\"" + tagValue + "\"";
        return c.scrapeMetrics().lines().filter(l -> l.startsWith(prefix) && l.contains(wanted))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst()
                .orElse(Double.NaN);
    }

    /** The value of a series without labels, NaN when absent. */
    public static double unlabelled(JuneauController c, String name) {
        return c.scrapeMetrics().lines().filter(l -> l.startsWith(name + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst()
                .orElse(Double.NaN);
    }

    /** Keys waiting, reconciling or waiting for a retry in every queue: zero means nothing left to do. */
    public static double unfinishedWork(JuneauController c) {
        return value(c, "juneau_workqueue_unfinished", "queue", "services")
                + value(c, "juneau_workqueue_unfinished", "queue", "pools")
                + value(c, "juneau_workqueue_unfinished", "queue", "networks");
    }

    /** Addresses of a pool held by the current term's allocator (NaN on a standby or before the restore). */
    public static double allocated(JuneauController c, String pool) {
        return value(c, "juneau_pool_addresses_allocated", "pool", pool);
    }
}
