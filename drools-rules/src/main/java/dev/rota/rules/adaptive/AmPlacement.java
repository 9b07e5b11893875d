package dev.rota.rules.adaptive;

/**
 * One ApplicationMaster container admitted by the AM rule of AG1: job {@code job} holds one container of machine
 * type {@code type} from now until it completes.
 */
public record AmPlacement(int job, int type) {
}
