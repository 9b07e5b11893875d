package dev.rota.core.elastic;

import static dev.rota.core.elastic.ElasticResource.CPU;
import static dev.rota.core.elastic.ElasticResource.DISK;
import static dev.rota.core.elastic.ElasticResource.MEMORY;
import static dev.rota.core.elastic.ElasticResource.NETWORK;

import dev.rota.core.model.Resource;
import java.util.Map;

/**
 * The paper's MinFrag example (Fig. 6, §III-B2b) in slots of T/8. The figure's bars are not in the
 * paper's text, only its capacities (16 cores, 64 GB, 10 Gbps, 500 MB/s), the finish times (the
 * running executor at t₀+T, candidate 1 at t₀+0.875T, candidate 2 at t₀+1.125T), the resulting DRR
 * terms and the fact that candidate 2 leaves no network bandwidth. These series are one
 * reconstruction that reproduces every one of those numbers exactly; memory is in MiB (GB × 1024)
 * and network in Mbit/s (Gbps × 1000), which leaves every ratio unchanged.
 */
final class Fig6 {
  private Fig6() {}

  static final int GB = 1024;
  static final int GBPS = 1000;

  /** 16 cores, 64 GB, 10 Gbps, 500 MB/s. */
  static final Resource NODE = Resource.of(64L * GB, 16, 10L * GBPS, 500);

  /** The executor already running; it finishes at t₀ + T (8 slots). */
  static final DemandSeries RUNNING =
      series(
          new double[] {8, 8, 8, 8, 4, 4, 4, 4},
          new double[] {24, 24, 24, 24, 16, 16, 16, 16},
          new double[] {6, 6, 6, 6, 8, 8, 8, 8},
          new double[] {200, 200, 200, 200, 300, 300, 300, 300});

  /** Candidate 1, finishing at t₀ + 0.875T (7 slots). */
  static final DemandSeries CANDIDATE_1 =
      series(
          new double[] {3, 3, 3, 2, 2, 1, 1},
          new double[] {20, 20, 20, 20, 20, 20, 19},
          new double[] {4, 4, 4, 3, 2, 1, 1},
          new double[] {200, 200, 200, 200, 150, 150, 100});

  /** Candidate 2, finishing at t₀ + 1.125T (9 slots). */
  static final DemandSeries CANDIDATE_2 =
      series(
          new double[] {4, 4, 4, 4, 3, 3, 3, 3, 2},
          new double[] {22, 22, 22, 22, 23, 23, 23, 23, 10},
          new double[] {4, 2, 2, 2, 2, 1, 1, 2, 1},
          new double[] {300, 300, 300, 300, 150, 150, 150, 150, 100});

  /** Per-resource series with memory in GB and network in Gbps, converted to the units. */
  static DemandSeries series(double[] cpu, double[] memGb, double[] netGbps, double[] diskMBps) {
    double[] mem = new double[memGb.length];
    double[] net = new double[netGbps.length];
    for (int k = 0; k < mem.length; k++) {
      mem[k] = memGb[k] * GB;
      net[k] = netGbps[k] * GBPS;
    }
    return DemandSeries.of(Map.of(CPU, cpu, MEMORY, mem, NETWORK, net, DISK, diskMBps));
  }
}
