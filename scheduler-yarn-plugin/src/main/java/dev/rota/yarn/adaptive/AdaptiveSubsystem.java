package dev.rota.yarn.adaptive;

import java.util.List;
import java.util.Map;

import dev.rota.yarn.spi.RotaKey;
import dev.rota.yarn.spi.RotaSubsystem;

/**
 * AdaptiveConfig's tuner as a Rota system: its keys ({@link AdaptiveKeys}), parsed with every other Rota key on
 * start and on every refreshQueues. The tuner itself is a scheduling monitor YARN creates
 * ({@link AdaptiveConfigTuner}); under Rota's scheduler it takes these parsed settings, under a plain
 * CapacityScheduler or a FairScheduler it parses them once per configuration it sees.
 */
public final class AdaptiveSubsystem implements RotaSubsystem<AdaptiveSettings> {

    @Override
    public String name() {
        return "adaptive";
    }

    @Override
    public List<RotaKey<?>> keys() {
        return AdaptiveKeys.KEYS;
    }

    @Override
    public Class<AdaptiveSettings> settingsType() {
        return AdaptiveSettings.class;
    }

    @Override
    public AdaptiveSettings parse(Map<String, String> rota) {
        return AdaptiveKeys.parse(rota);
    }

    @Override
    public String describe(AdaptiveSettings settings) {
        return "adaptive: " + settings.describe();
    }
}
