package dev.reliableredis.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The two charts of the report, as PNG. */
final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;
    /** Beyond p99.99 a few thousand samples say nothing. */
    private static final double MAX_PERCENTILE = 99.99;

    private Charts() {
    }

    /** msgs/s against concurrentConsumers, one line per mode and messages per claim; the axis has the measured points. */
    static void throughput(Report report, Path png) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String mode : List.of("list", "stream")) {
            for (int perPoll : Report.SWEEP_PER_POLL) {
                XYSeries series = new XYSeries(mode + ", maxMessagesPerPoll=" + perPoll);
                for (int k = 0; k < Report.SWEEP_CONSUMERS.size(); k++) {
                    Double rate = report.sweepPoint(mode, Report.SWEEP_CONSUMERS.get(k), perPoll);
                    if (rate != null) {
                        series.add(k, rate);
                    }
                }
                if (!series.isEmpty()) {
                    data.addSeries(series);
                }
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Throughput through Camel routes, 8 plain senders",
                "concurrentConsumers", "msgs/s", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(new SymbolAxis("concurrentConsumers",
                Report.SWEEP_CONSUMERS.stream().map(String::valueOf).toArray(String[]::new)));
        style(plot);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    /** Latency against percentile at half load, one line per contender. */
    static void latency(Report report, Path png) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Map.Entry<String, String> entry : Report.latencySeries().entrySet()) {
            Histogram h = report.loadedHistogram(entry.getValue());
            if (h == null) {
                continue;
            }
            XYSeries series = new XYSeries(entry.getKey());
            for (HistogramIterationValue v : h.percentiles(5)) {
                double percentile = v.getPercentileLevelIteratedTo();
                if (percentile > MAX_PERCENTILE) {
                    break;
                }
                // x = 1 / (1 - p): 10 at p90, 100 at p99, 1000 at p99.9
                series.add(1 / (1 - percentile / 100), v.getValueIteratedTo() / 1e6);
            }
            data.addSeries(series);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Send to route start at half of each contender's maximum",
                "percentile", "ms", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(new LogarithmicAxis("percentile, as 1 / (1 − p): 10 = p90, 100 = p99, 1000 = p99.9"));
        plot.setRangeAxis(new LogarithmicAxis("ms"));
        style(plot);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    private static void style(XYPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(renderer);
    }
}
