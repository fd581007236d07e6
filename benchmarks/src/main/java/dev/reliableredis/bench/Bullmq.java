package dev.reliableredis.bench;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

/** BullMQ on the same Redis, run by Node from benchmarks/bullmq (npm install there first; skipped without Node). */
final class Bullmq {

    private Bullmq() {
    }

    static boolean available(File dir) {
        try {
            Process node = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            if (node.waitFor() != 0) {
                throw new IllegalStateException("node --version failed");
            }
        } catch (Exception e) {
            System.out.println("BullMQ is skipped: Node.js is not on this machine (" + e.getMessage() + ")");
            return false;
        }
        if (!new File(dir, "node_modules/bullmq").isDirectory()) {
            System.out.println("BullMQ is skipped: run `npm ci` in " + dir + " first");
            return false;
        }
        return true;
    }

    static Map<String, Object> run(Spec spec, File dir, File log) throws Exception {
        Map<String, Object> nodeSpec = new LinkedHashMap<>();
        nodeSpec.put("port", spec.port());
        nodeSpec.put("messages", spec.messages());
        nodeSpec.put("consumers", spec.consumers());
        nodeSpec.put("producers", spec.producers());
        nodeSpec.put("queued", spec.queued());
        nodeSpec.put("latency", spec.idleSamples() > 0);
        nodeSpec.put("idleSamples", spec.idleSamples());
        nodeSpec.put("warmup", spec.warmup());
        nodeSpec.put("rate", spec.loadedRate());
        nodeSpec.put("loadedSeconds", spec.loadedSeconds());
        return ChildProcess.node(nodeSpec, dir, log);
    }
}
