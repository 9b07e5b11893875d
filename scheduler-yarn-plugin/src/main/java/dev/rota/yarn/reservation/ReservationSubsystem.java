package dev.rota.yarn.reservation;

import java.util.List;
import java.util.Map;

import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;

/**
 * Rayon in YARN's reservation system as a Rota system: its keys ({@link ReservationKeys}), validated with every
 * other Rota key on start and on every refreshQueues, so a bad value rejects the refresh before YARN re-creates
 * the reservation plug-ins. Those plug-ins ({@link RotaPlanner}, {@link RotaReservationAgent},
 * {@link RotaSharingPolicy}) are created by YARN's reservation system with nothing but a configuration; they
 * read their keys from it with this system's parser ({@link ReservationKeys#from}), the one place the keys are
 * parsed.
 */
public final class ReservationSubsystem implements RotaSubsystem<ReservationSettings> {

    @Override
    public String name() {
        return "reservation";
    }

    @Override
    public List<RotaKey<?>> keys() {
        return ReservationKeys.KEYS;
    }

    @Override
    public Class<ReservationSettings> settingsType() {
        return ReservationSettings.class;
    }

    @Override
    public ReservationSettings parse(Map<String, String> rota) {
        return ReservationKeys.parse(rota);
    }

    @Override
    public String describe(ReservationSettings settings) {
        return settings.describe();
    }
}
