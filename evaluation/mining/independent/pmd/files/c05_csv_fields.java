package org.dataflow.csv;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** Splits one CSV record into its fields, honouring quotes. */
public class CsvFieldIterator implements Iterator<String> {

    private final String record;
    private int position;

    public CsvFieldIterator(String record) {
        this.record = record;
    }

    @Override
    public boolean hasNext() {
        return position <= record.length();
    }

    @Override
    public String next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        boolean quoted = position < record.length() && record.charAt(position) == '"';
        int start = quoted ? position + 1 : position;
        int end = quoted ? record.indexOf('"', start) : record.indexOf(',', start);
        if (end < 0) {
            end = record.length();
        }
        position = quoted ? end + 2 : end + 1;
        return record.substring(start, end);
    }
}
