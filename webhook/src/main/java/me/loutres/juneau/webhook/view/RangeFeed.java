package me.loutres.juneau.webhook.view;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.List;
import java.util.function.Function;
import me.loutres.juneau.view.OwnedRanges;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.ViewKeys;

/** Keeps a {@link RangeIndex} (or its IPv6 counterpart) equal to an informer's cache: each object version replaces the ranges of the last. */
final class RangeFeed<T extends HasMetadata, H> implements ResourceEventHandler<T> {
    private final OwnedRanges<H> index;
    private final String prefix;
    private final Function<T, List<H>> ranges;

    private RangeFeed(OwnedRanges<H> index, String prefix, Function<T, List<H>> ranges) {
        this.index = index;
        this.prefix = prefix;
        this.ranges = ranges;
    }

    static <T extends HasMetadata, H> RangeFeed<T, H> of(OwnedRanges<H> index, Function<T, List<H>> ranges) {
        return new RangeFeed<>(index, "", ranges);
    }

    /** Several kinds feeding one index keep their owners apart with a prefix. */
    static <T extends HasMetadata, H> RangeFeed<T, H> of(OwnedRanges<H> index, String prefix,
            Function<T, List<H>> ranges) {
        return new RangeFeed<>(index, prefix, ranges);
    }

    @Override
    public void onAdd(T obj) {
        index.replace(prefix + ViewKeys.key(obj), ranges.apply(obj));
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        onAdd(newObj);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        index.remove(prefix + ViewKeys.key(obj));
    }
}
