package dev.rota.rules.adaptive;

/**
 * One ApplicationMaster container started by AG4 (rule "AG4 start the ApplicationMaster"): job
 * {@code job} holds one container of machine type {@code type} from now until it completes.
 */
public record AmPlacement(int job, int type, int sequence) {}
