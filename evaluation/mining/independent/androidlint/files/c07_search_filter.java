package com.example.contacts.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

public class ContactFilter {

    private final List<Contact> contacts;
    private final Locale userLocale;

    public ContactFilter(List<Contact> contacts, Locale userLocale) {
        this.contacts = contacts;
        this.userLocale = userLocale;
    }

    public List<Contact> matching(String query) {
        String needle = query.trim().toLowerCase(userLocale);
        List<Contact> result = new ArrayList<>();
        for (Contact contact : contacts) {
            if (contact.getDisplayName().toLowerCase(userLocale).contains(needle)) {
                result.add(contact);
            }
        }
        return result;
    }

    public String regionKey(Contact contact) {
        return contact.getCountryCode().toUpperCase(Locale.ROOT) + ":" + contact.getId();
    }
}
