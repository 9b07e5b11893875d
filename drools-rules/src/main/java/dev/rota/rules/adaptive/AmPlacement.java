package dev.rota.rules.adaptive;

/**
 * One ApplicationMaster container placed by AG3 (rule "AG3 placement", before the job's tasks): job {@code job}
 * holds one container of machine type {@code type} from now until it completes.
 */
public record AmPlacement(int job, int type) {
}
