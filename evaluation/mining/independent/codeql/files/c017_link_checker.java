package site.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

public class LinkChecker {

    private final Predicate<String> reachable;

    public LinkChecker(Predicate<String> reachable) {
        this.reachable = reachable;
    }

    public List<String> broken(List<String> links) {
        List<String> broken = new ArrayList<>();
        for (String link : links) {
            if (!reachable.test(link)) {
                broken.add(link);
            }
        }
        return broken;
    }

    public static void main(String[] args) {
        LinkChecker checker = new LinkChecker(url -> url.startsWith("https://"));
        System.out.println(checker.broken(List.of("https://a.example", "ftp://b.example")));
    }
}
