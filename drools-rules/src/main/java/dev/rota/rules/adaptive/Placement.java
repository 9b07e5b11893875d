package dev.rota.rules.adaptive;

/**
 * One granted task placed by AG3 (a Grant that passed the constraint checks): job {@code job} starts its next
 * task now on {@code containersPerTask} containers of machine type {@code type}. {@code sequence} is the
 * placement order.
 */
public record Placement(int job, int type, int sequence) {
}
