package dev.reliableredis.queue.runtime;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Default consumer names for stream mode: host-pid-random, unique per endpoint. */
public final class ConsumerNames {

    private ConsumerNames() {
    }

    public static String generate() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "host";
        }
        byte[] random = new byte[3];
        ThreadLocalRandom.current().nextBytes(random);
        return (host.replaceAll("[^A-Za-z0-9._:-]", "_") + "-" + ProcessHandle.current().pid() + "-"
                + HexFormat.of().formatHex(random));
    }
}
