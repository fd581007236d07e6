package dev.reliableredis.example.springboot;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.camel.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/** Bills each order; remembers which orders it billed, for the example's test. */
@Service
public class Billing {

    private static final Logger LOG = LoggerFactory.getLogger(Billing.class);

    private final Set<String> billed = ConcurrentHashMap.newKeySet();

    public void bill(@Header("orderId") String orderId) {
        if (billed.add(orderId)) {
            LOG.info("Billed order {}", orderId);
        }
    }

    public Set<String> billed() {
        return billed;
    }
}
