package app.onboarding;

import java.util.Random;

public class TipOfTheDay {

    private final String[] tips;
    private final Random random;

    public TipOfTheDay(String[] tips, long seed) {
        if (tips.length == 0) {
            throw new IllegalArgumentException("no tips configured");
        }
        this.tips = tips.clone();
        this.random = new Random(seed);
    }

    public String pick() {
        int index = random.nextInt(tips.length);
        return tips[index];
    }

    public static void main(String[] args) {
        TipOfTheDay tip = new TipOfTheDay(new String[] {"Use keyboard shortcuts", "Pin your projects"}, 7L);
        System.out.println(tip.pick());
    }
}
