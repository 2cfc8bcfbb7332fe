package report.html;

public class TableStriper {

    private final String oddClass;
    private final String evenClass;

    public TableStriper(String oddClass, String evenClass) {
        this.oddClass = oddClass;
        this.evenClass = evenClass;
    }

    public String cssClassFor(int rowOffset) {
        if (rowOffset % 2 == 1) {
            return oddClass;
        }
        return evenClass;
    }

    public String row(int rowOffset, String cells) {
        return "<tr class=\"" + cssClassFor(rowOffset) + "\">" + cells + "</tr>";
    }
}
