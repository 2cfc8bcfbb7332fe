package cinema.booking;

public class SeatMap {

    private final boolean[][] taken;

    public SeatMap(int rows, int seatsPerRow) {
        taken = new boolean[rows][seatsPerRow];
    }

    public void book(int row, int seat) {
        if (row < 0 || row >= taken.length || seat < 0 || seat >= taken[row].length) {
            throw new IllegalArgumentException("no such seat " + row + "/" + seat);
        }
        taken[row][seat] = true;
    }

    public int freeInLastRow() {
        boolean[] last = taken[taken.length - 1];
        int free = 0;
        for (int i = 0; i < last.length; i++) {
            if (!last[i]) {
                free++;
            }
        }
        return free;
    }
}
