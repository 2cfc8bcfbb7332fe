package io.netkit.pool;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Deque;

public class SocketPool {

    private final Deque<Socket> idle = new ArrayDeque<>();

    public synchronized void release(Socket socket) {
        idle.push(socket);
    }

    public synchronized void shutdown() {
        for (Socket socket : idle) {
            try {
                socket.close();
            } catch (IOException e) {
                System.err.println("could not close pooled socket: " + e);
            }
        }
        idle.clear();
    }

    @Override
    protected void finalize() throws Throwable {
        try {
            shutdown();
        } finally {
            super.finalize();
        }
    }
}
