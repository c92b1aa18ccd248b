package me.loutres.juneau.view;

import java.util.List;

/** An index whose entries each belong to one object (its key), so a new version of the object replaces them. */
public interface OwnedRanges<H> {
    /** The owner's entries become exactly {@code hits} (none: the owner is removed); false when they already were. */
    boolean replace(String owner, List<H> hits);

    /** Removes the owner's entries; false when it had none. */
    boolean remove(String owner);
}
