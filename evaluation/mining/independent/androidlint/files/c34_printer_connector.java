package com.example.printing;

import android.net.SSLCertificateSocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;

public class PrinterConnector {

    private static final int IPP_TLS_PORT = 631;
    private static final int HANDSHAKE_TIMEOUT_MS = 5000;

    private final SSLCertificateSocketFactory factory =
            (SSLCertificateSocketFactory) SSLCertificateSocketFactory.getDefault(HANDSHAKE_TIMEOUT_MS);

    public Socket connect(String printerHost) throws IOException {
        return factory.createSocket(printerHost, IPP_TLS_PORT);
    }

    public Socket connectFrom(String printerHost, InetAddress localInterface) throws IOException {
        return factory.createSocket(printerHost, IPP_TLS_PORT, localInterface, 0);
    }
}
