package me.loutres.juneau.apiserver;

import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Session;

/**
 * The WebSocket end of a watch. Public because Jetty binds its listener methods through a public lookup; what
 * the watch does once the socket is open is the caller's ({@link WatchHandler}).
 */
public final class WatchSocket implements Session.Listener.AutoDemanding {
    private final Consumer<Session> onOpen;

    WatchSocket(Consumer<Session> onOpen) {
        this.onOpen = onOpen;
    }

    @Override
    public void onWebSocketOpen(Session session) {
        onOpen.accept(session);
    }
}
