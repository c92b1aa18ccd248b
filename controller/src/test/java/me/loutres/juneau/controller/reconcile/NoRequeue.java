package me.loutres.juneau.controller.reconcile;

import me.loutres.juneau.controller.ServiceKey;

/** Follow-up work dropped: a test that drives one pass at a time decides itself when the next one runs. */
final class NoRequeue implements Requeue {
    @Override
    public void service(ServiceKey key) {
    }

    @Override
    public void pool(String name) {
    }

    @Override
    public void network(String name) {
    }
}
