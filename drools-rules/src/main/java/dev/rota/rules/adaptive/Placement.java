package dev.rota.rules.adaptive;

/**
 * One task started by AG4 (a grant that passed the AG3 checks): job {@code job} runs its next task
 * from {@code start} to {@code end} on {@code containersPerTask} containers of machine type {@code
 * type}. {@code sequence} is the grant order.
 */
public record Placement(int job, int type, int sequence, double start, double end) {}
