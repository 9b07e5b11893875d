package dev.rota.rules.adaptive;

/**
 * AG4's output for one job (the Estimate fact).
 *
 * @param index job index
 * @param completion absolute completion time
 * @param starved the job never got every task started (charged the starvation penalty)
 */
public record EstimateFact(int index, double completion, boolean starved) {}
